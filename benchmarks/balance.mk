# benchmarks/balance.mk - issue 12's experiment on LAMMPS: melt with and
# without time-weighted load balancing under trc-experiment, 4 ranks;
# the verdicts, times and trace sizes (benchmarks/validate-balance.sh).
validate-balance: $(O)/libtrc-mpi.so $(B)/trc-record $(B)/trc-experiment $(B)/trc-design $(B)/trc-effects $(B)/trc-stable $(B)/trc-perturb
	@sh benchmarks/validate-balance.sh $(abspath $(B)) $(abspath $(O))

.PHONY: validate-balance
