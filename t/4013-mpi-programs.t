#!/bin/sh
# libtrc-mpi on real programs from Debian, run as a new user would:
# HPCC (its MPI_COMM_SELF collectives once made every tool refuse the
# trace, "invalid comm '-1'") and LAMMPS's Lennard-Jones melt (MPI_Scan
# and MPI_Sendrecv, no MPI_Isend, issue 12), each on 2 ranks, small.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"
command -v hpcc >/dev/null && command -v lmp >/dev/null ||
	skip_all "hpcc or lmp not installed (make deps)"

# Every comm= a positive id; the members of each agree on its size=,
# and no more ranks use it than that.
comms_ok() {
	awk '!/^#/ && / comm=/ {
		c = $0; sub(/.* comm=/, "", c); sub(/ .*/, "", c)
		if (c !~ /^[1-9][0-9]*$/) { print "bad comm=" c; next }
		if (!((c, $2) in seen)) { seen[c, $2] = 1; n[c]++ }
		if ($3 == "XB") { s = $0; sub(/.* size=/, "", s); sub(/ .*/, "", s)
			if ((c in size) && size[c] != s) print "comm " c ": size " size[c] " and " s
			size[c] = s }
	}
	END { for (c in n) if ((c in size) && n[c] > size[c]) print "comm " c ": " n[c] " ranks, size " size[c] }' "$1"
}

cd "$tmp" || exit 2
sed -e 's/^1000  *Ns/500          Ns/' -e 's/^2  *Ps/1            Ps/' \
	/usr/share/doc/hpcc/examples/_hpccinf.txt >hpccinf.txt
tr=$tmp/hpcc.trc
trc-record -o "$tr" -- -np 2 hpcc >"$out" 2>"$err"
ok $? "trc-record runs HPCC on 2 ranks"
check_stream "$tr" 2
is "$(comms_ok "$tr")" "" "HPCC: every communicator a valid id its members agree on"
ok "$([ "$(awk '$3 == "XB" && / size=1$/' "$tr" | wc -l)" -gt 0 ]; echo $?)" \
	"HPCC: collectives of one rank (its single-process tests)"
is "$(awk '$3 == "XB" && / size=1$/ { c = $0; sub(/.* comm=/, "", c); sub(/ .*/, "", c); r[c] = r[c] " " $2 }
	END { for (c in r) { split(r[c], a, " "); for (i in a) if (a[i] != a[1]) print c } }' "$tr")" "" \
	"HPCC: each one-rank communicator used by one rank"
expect_exit 0 "HPCC: trc-sum reads it" -- trc-sum "$tr"
expect_exit 0 "HPCC: trc-scale predicts it" -- trc-scale --cpu-ratio 0.5 "$tr"
is "$(grep -c ' XE ' "$out")" "$(grep -c ' XE ' "$tr")" "HPCC: every collective end predicted"
expect_exit 0 "HPCC: trc-stable, the trace against itself" -- trc-stable -q "$tr" "$tr"

cat >in.melt <<'X'
units		lj
atom_style	atomic
lattice		fcc 0.8442
region		box block 0 6 0 6 0 6
create_box	1 box
create_atoms	1 box
mass		1 1.0
velocity	all create 3.0 87287 loop geom
pair_style	lj/cut 2.5
pair_coeff	1 1 1.0 1.0 2.5
neighbor	0.3 bin
neigh_modify	every 20 delay 0 check no
fix		1 all nve
thermo		50
run		100
X
tr=$tmp/melt.trc
trc-record -o "$tr" -- -np 2 lmp -in in.melt -log none -screen none >"$out" 2>"$err"
ok $? "trc-record runs LAMMPS melt on 2 ranks"
check_stream "$tr" 2
is "$(comms_ok "$tr")" "" "melt: every communicator a valid id its members agree on"
expect_exit 0 "melt: trc-sum reads it" -- trc-sum "$tr"
sumrow() { awk -v op="$1" '$1 == op { print $2, $3 }' "$out"; }
is "$(sumrow isend)" "" "melt: no isend, which it never calls"
is "$(sumrow irecv)" "$(awk '$3 == "RE" && / req=/ && !/ op=/ { n++; b = $0; sub(/.* bytes=/, "", b); sub(/ .*/, "", b); s += b }
	END { print n, s }' "$tr")" "melt: irecv, its own MPI_Irecv only"
is "$(sumrow sendrecv)" "$(awk '$3 == "WE" && / op=sendrecv/ { n++ } ($3 == "SE" || $3 == "RE") && / op=sendrecv/ {
	b = $0; sub(/.* bytes=/, "", b); sub(/ .*/, "", b); s += b } END { print n, s }' "$tr")" \
	"melt: sendrecv, its calls and the bytes of its parts"
ok "$([ "$(sumrow sendrecv | cut -d' ' -f1)" -gt 0 ] && [ "$(sumrow sendrecv | cut -d' ' -f2)" -gt 0 ]; echo $?)" \
	"melt: some sendrecv calls, some bytes"
ok "$([ "$(sumrow scan | cut -d' ' -f1)" -gt 0 ]; echo $?)" "melt: MPI_Scan traced"
expect_exit 0 "melt: trc-scale predicts it" -- trc-scale --cpu-ratio 0.5 "$tr"
expect_exit 0 "melt: trc-stable, the trace against itself" -- trc-stable -q "$tr" "$tr"
done_testing
