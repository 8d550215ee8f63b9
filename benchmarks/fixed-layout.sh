# fixed-layout.sh - sourced first by the validate scripts: one memory
# layout for every run.  With address-space randomization the stack's
# offset within a page changes from process to process, and at -O0 a
# rank whose stack aliases its arrays modulo 4 KiB computes up to 1.5x
# slower for the whole run (measured: 5 of 18 rank-runs of the -O0 heat
# slow with it, 0 of 11 without), a bimodal "machine" no prediction
# holds.  The script runs again under setarch -R; ASLR=on keeps the
# randomization.
if [ "${ASLR:-off}" = off ] && [ -z "$TRC_FIXED_LAYOUT" ] && setarch -R true 2>/dev/null; then
	TRC_FIXED_LAYOUT=1 exec setarch -R sh "$0" "$@"
fi
