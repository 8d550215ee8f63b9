# t/mpi/lib-mpi.sh - settings and helpers shared by the MPI tests; source
# it after t/lib.sh.
command -v mpirun >/dev/null || skip_all "no mpirun"
: "${TRC_BUILD:=$(cd "$T/.." && pwd)/build}"
TRC_LIB=$TRC_BUILD/libtrc-mpi.so
MPIT=$TRC_BUILD/t/mpi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
[ -f "$TRC_LIB" ] || skip_all "libtrc-mpi.so not built"
PRELOAD=$TRC_LIB
export TRC_LIB
# ASan's runtime must come first among the libraries of a sanitized
# program, so under the sanitizers it is preloaded before the tracer.
if [ -n "$TRC_SANITIZE" ]; then
	TRC_PRELOAD=$(${CC:-cc} -print-file-name=libasan.so)
	[ -f "$TRC_PRELOAD" ] || skip_all "no libasan.so to preload"
	PRELOAD="$TRC_PRELOAD $TRC_LIB"
	export TRC_PRELOAD ASAN_OPTIONS=detect_leaks=0
fi

# count TRACE RANK KIND 'k=v ...': events of RANK and KIND carrying every
# given attribute (as whole fields).
count() {
	awk -v r="$2" -v k="$3" -v want="$4" '
		BEGIN { n = split(want, w, " ") }
		!/^#/ && $2 == r && $3 == k {
			for (i = 1; i <= n; i++) {
				f = 0
				for (j = 4; j <= NF; j++)
					if ($j == w[i]) f = 1
				if (!f) next
			}
			c++
		}
		END { print c + 0 }' "$1"
}

# check_events TRACE < list: each line "N RANK KIND attrs..." says that
# exactly N events match.
check_events() {
	while read -r n r k a; do
		case $n in ''|'#'*) continue ;; esac
		is "$(count "$1" "$r" "$k" "$a")" "$n" "$r $k $a"
	done
}

# The stream is valid: the header first, times sorted, ranks in range.
check_stream() {
	is "$(head -1 "$1")" "#trc 1 ranks=$2 order=time" "header"
	ok "$(grep -q '^#clock source=realtime origin=[0-9]*\.[0-9]\{9\}\( pollt=wall\)\{0,1\}\( cpu=thread\)\{0,1\}$' "$1"; echo $?)" "clock origin recorded"
	is "$(awk '!/^#/ && ($1 !~ /^[0-9]+\.[0-9]{9}$/ || $1 + 0 < last) { print NR; exit } !/^#/ { last = $1 + 0 }' "$1")" "" \
		"times sorted"
	is "$(awk -v n="$2" '!/^#/ && ($2 < 0 || $2 >= n)' "$1")" "" "ranks in range"
	is "$(awk '!/^#/ { print $1; exit }' "$1" | awk '{ print ($1 < 10) }')" "1" "times start near 0"
}
