# benchmarks/bench.mk - trc-bench against the programs it imitates
# (issue 17): execution graphs of every example and MPI test program
# and their benchmarks, the foreign samples run, and run times,
# original against benchmark, median of 5.
validate-bench: $(MPI_BENCH) $(EXAMPLES) $(MPI_TESTS) $(O)/libtrc-mpi.so $(B)/trc-record $(B)/trc-bench $(B)/trc-stable
	@sh benchmarks/validate-bench.sh $(abspath $(B)) $(abspath $(O))

.PHONY: validate-bench
