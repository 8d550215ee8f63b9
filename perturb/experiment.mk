# perturb/experiment.mk - time perturbation experiments as make targets
# (trc-experiment(1)).  Include it from a makefile after setting
# EXP_DIRS:
#
#	EXP_DIRS = heat.exp
#	include /usr/local/share/trc/experiment.mk
#	all: heat.exp/effects
#
# An experiment is a directory holding its inputs: factors (a factor
# file, trc-factors(5)), command (the mpirun arguments, as shell words)
# and, optionally, design (trc-design options such as
# --replications 2).  Every other file in it is made from them: the
# baseline trace, each run's delay spec, trace, distance from the
# baseline and run time, the response table and the effects with the
# verdict.  Each is a file target, so that make -j runs the runs in
# parallel and a second make redoes only what is missing or out of
# date.
#
# Including this file defines variables named EXP_* and, for the
# directories of EXP_DIRS only, rules for files inside them; it defines
# no rule at all when EXP_DIRS is empty, as in trc's own Makefile.

EXP_MK := $(lastword $(MAKEFILE_LIST))

# The programs, from PATH unless set (on the command line or in the
# environment, which the rules read when they run).
EXP_RECORD ?= trc-record
EXP_STABLE ?= trc-stable
EXP_DESIGN ?= trc-design
EXP_EFFECTS ?= trc-effects
EXP_PERTURB ?= trc-perturb
EXP_CHECK ?= trc-perturb

# What a run is allowed (trc-experiment(1) sets them from its options):
# EXP_KEEP, the traces kept (none, diff: only those whose graph differs,
# all; the baseline always); EXP_LIMIT, each run's time limit in
# seconds (empty: none); EXP_FORCE, not empty to run factors the
# baseline shows cannot fire and to give "stable" all the same.
EXP_KEEP ?= diff
EXP_LIMIT ?=
EXP_FORCE ?=

# The design: the run table, each run's delay spec, and the run numbers
# for make.  A design without the point where every factor is low (a
# fraction such as C=AB) gets as many runs without delay as it has
# replications, numbered after its own and of std 0: repeats of the
# baseline, which tell a program unstable by itself (trc-effects(1)).
define EXP_table_design_recipe
@echo "$@: trc-design $(1) $$(cat $(@D)/design 2>/dev/null)"
@$(EXP_DESIGN) $(1) $$(cat $(@D)/design 2>/dev/null) $(@D)/factors \
	>$@.tmp || { rm -f $@.tmp; exit 2; }; \
	awk -F '\t' -v OFS='\t' -v t=$(1) ' \
	    NR == 1 { print; nf = NF; next } \
	    { print; n++; r += $$2 == 1; low = t == "-t" || $$3 == ""; \
	      for (i = 3; t == "-t" && i <= NF; i++) low = low && $$i == "-1"; \
	      b += low } \
	    END { for (k = 1; !b && k <= r; k++) { s = n + k OFS 0; \
	      for (j = 3; j <= nf; j++) s = s OFS (t == "-t" ? "-1" : ""); \
	      print s } }' $@.tmp >$@.tmp2 && rm -f $@.tmp && mv -f $@.tmp2 $@
endef

# The runs, and the first run of each design row (std): offline, the
# replications of a row are the same trace, made once.
define EXP_runs_recipe
@awk 'NR > 1 { r = r " " $$1; if (!($$2 in f)) { f[$$2]; o = o " " $$1 } } \
	END { print "EXP_RUNS_$(@D) :=" r; print "EXP_OFF_$(@D) :=" o }' \
	$< >$@.tmp && mv -f $@.tmp $@
endef

# Each factor against the baseline before any run (trc-perturb --check):
# one that cannot fire there (a call the program never makes, a rank it
# does not have, a region never opened, occurrences beyond its calls)
# stops the experiment, unless forced.
define EXP_check_recipe
@$(EXP_CHECK) --check $(@D)/factors $(@D)/base.trc >$@.tmp; s=$$?; \
	test $$s -le 1 || { rm -f $@.tmp; exit 2; }; \
	if test $$s = 1 && test -z "$(EXP_FORCE)"; then rm -f $@.tmp; \
	    echo "$(@D): a factor never fires in the baseline: no run made" \
	        "(trc-experiment --force makes them)" >&2; exit 2; fi; \
	mv -f $@.tmp $@
endef

# A run's delay spec, rewritten only when it changed: a new design (more
# replications, another factor's delay) reruns only the runs it changes.
define EXP_delay_recipe
@awk -F '\t' -v r=$* 'NR > 1 && $$1 == r { print $$3; f = 1 } \
	END { exit !f }' $< >$@.tmp || \
	{ echo "$@: no run $* in $<" >&2; rm -f $@.tmp; exit 2; }; \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi
endef

# A traced run under mpirun; mpirun reads its standard input, hence
# /dev/null.  The program's output goes to NAME.out.  The trace appears
# only when complete, so an interrupted run is redone; a run stopped by
# its time limit keeps its partial trace, which says so (but the
# baseline must finish).
define EXP_record_recipe
@test -f $(@D)/command || { echo "$(@D)/command: no such file" >&2; exit 2; }
@d=$(if $(filter %.delay,$<),$$(cat $<),baseline); echo "$@: $${d:-no delay}"
@eval "set -- $$(cat $(@D)/command)"; \
	$(EXP_RECORD) $(if $(EXP_LIMIT),-T $(EXP_LIMIT)) \
	    -d "$(if $(filter %.delay,$<),$$(cat $<))" -o $@.tmp \
	    -- "$$@" </dev/null >$(@:.trc=.out) 2>&1 || { s=$$?; \
	    if $(if $(filter %.delay,$<),,false &&) test -f $@.tmp && \
	        grep -q '^# trc-record: its time limit' $@.tmp; then \
	        echo "$@: stopped by its time limit (-T $(EXP_LIMIT))" >&2; \
	    else echo "$@: the run failed (exit $$s), see $(@:.trc=.out)" >&2; \
	        exit 2; fi; }; \
	mv -f $@.tmp $@
$(if $(filter %.delay,$<),,@sed -n 's|^trc-record: calls not traced|$@: &|p' $(@:.trc=.out) >&2)
endef

# A run perturbed offline: the baseline with the run's delays added.
define EXP_perturb_recipe
@d=$$(cat $<); echo "$@: $${d:-no delay}"
@$(EXP_PERTURB) -d "$$(cat $<)" $(@D)/base.trc >$@.tmp || \
	{ rm -f $@.tmp; exit 2; }; \
	mv -f $@.tmp $@
endef

# A run's responses: its distance from the baseline (trc-stable's
# output is kept in NAME.stable) and its run time, the span of its
# events; where it first differs from the baseline, the first differing
# choice point as RANK:CALL:FILE:LINE, or - ; the delays each of its
# factors made, in the order of its delay spec (the #delay lines of the
# tracer; offline, the baseline's counts of the check), or - for none
# and ? when the trace does not say; and 1 when its time limit stopped
# it, 0 if not.  A stopped run's partial trace cannot be compared: its
# distance is how many events it has fewer or more than the baseline,
# at least 1.  Then its trace goes, unless EXP_KEEP keeps it.
define EXP_response_recipe
@if IFS= read -r l <$< && test "$${l#\#trc-partial}" != "$$l"; then \
	nb=$$(grep -vc '^#' $(@D)/base.trc); nr=$$(grep -vc '^#' $<); \
	d=$$((nb > nr ? nb - nr : nr - nb)); test $$d -gt 0 || d=1; \
	lim=1; c=; echo "$<: partial, stopped by its time limit" \
	    >$(@:.res=.stable); \
else lim=0; \
	$(EXP_STABLE) --choice $(@D)/base.trc $< >$(@:.res=.stable); \
	test $$? -le 1 || exit 2; \
	d=$$(sed -n 's/.*, distance \([0-9][0-9]*\)$$/\1/p' $(@:.res=.stable)); \
	test -n "$$d" || { echo "$(@:.res=.stable): no distance" >&2; exit 2; }; \
	c=$$(awk '$$0 ~ /^first differing choice point: rank / { \
	    p = $$8; if (p ~ /:$$/) { p = $$10; sub(/,$$/, "", p) } \
	    print $$6 ":" $$7 ":" p }' $(@:.res=.stable)); \
fi; \
t=$$(awk '!/^#/ { if (n++ == 0 || $$1 < lo) lo = $$1; \
	if (n == 1 || $$1 > hi) hi = $$1 } \
	END { printf "%.9f", hi - lo }' $<) || exit 2; \
spec=$$(cat $(@D)/run-$*.delay); \
if test -z "$$spec"; then f=-; \
elif test $(1) = off; then \
	f=$$(printf '%s\n' "$$spec" | tr ';' '\n' | awk -F '\t' \
	    'NR == FNR { if (FNR > 1) n[$$4] = $$3; next } \
	    { s = s (FNR > 1 ? "," : "") ($$0 in n ? n[$$0] : "?") } \
	    END { print s }' $(@D)/factors.check -); \
else \
	f=$$(awk '!/^#/ { exit } /^#delay fired=/ { x = $$2; \
	    sub(/^fired=/, "", x); s = s (n++ ? "," : "") x } \
	    END { print n ? s : "?" }' $<); \
fi; \
printf '%s\t%s\t%s\t%s\t%s\n' "$$d" "$$t" "$${c:--}" "$$f" "$$lim" >$@; \
case '$(EXP_KEEP)' in all) ;; none) rm -f $< ;; *) test "$$d" != 0 || rm -f $< ;; esac
endef

# The response table: the run table with each run's distance and time.
# $(1) is the prefix of the runs' files, run or off.
define EXP_table_recipe
@awk -F '\t' -v OFS='\t' -v p=$(@D)/$(1)- -v once=$(filter off,$(1)) ' \
	NR == 1 { print $$0, "distance", "time", "choice", "fired", "limit"; \
	    next } \
	{ if (!($$2 in first)) first[$$2] = $$1; \
	  f = p (once ? first[$$2] : $$1) ".res"; \
	  if ((getline r <f) <= 0) { print f ": missing" >"/dev/stderr"; exit 2 } \
	  close(f); print $$0, r }' $< >$@.tmp && mv -f $@.tmp $@
endef

# The effects and the verdict; trc-effects exits 1 for unstable, which
# is a result here, not a failure.
define EXP_effects_recipe
@$(EXP_EFFECTS) $(if $(EXP_FORCE),--force) --factors $(@D)/factors $< >$@.tmp; \
	test $$? -le 1 || { rm -f $@.tmp; exit 2; }; \
	mv -f $@.tmp $@
endef

define EXP_verdict_recipe
@sed -n '/^verdict/,$$ { s|^verdict|$(@D): &|; p; }' $<
endef

# The rules of one experiment directory $(1).
define EXP_rules
$(1)/design.tsv: $(1)/factors $(wildcard $(1)/design)
	$$(call EXP_table_design_recipe,-t)

$(1)/delays.tsv: $(1)/factors $(wildcard $(1)/design)
	$$(call EXP_table_design_recipe,--delays)

$(1)/runs.mk: $(1)/design.tsv
	$$(EXP_runs_recipe)

$(1)/base.trc: $(wildcard $(1)/command)
	$$(EXP_record_recipe)

$(1)/factors.check: $(1)/base.trc $(1)/factors
	$$(EXP_check_recipe)

ifneq ($$(strip $$(EXP_RUNS_$(1))),)
$$(EXP_RUNS_$(1):%=$(1)/run-%.delay): $(1)/run-%.delay: $(1)/delays.tsv \
    $(1)/factors.check
	$$(EXP_delay_recipe)

$$(EXP_RUNS_$(1):%=$(1)/run-%.trc): $(1)/run-%.trc: $(1)/run-%.delay \
    $(wildcard $(1)/command)
	$$(EXP_record_recipe)

$$(EXP_OFF_$(1):%=$(1)/off-%.trc): $(1)/off-%.trc: $(1)/run-%.delay \
    $(1)/base.trc
	$$(EXP_perturb_recipe)

$$(EXP_RUNS_$(1):%=$(1)/run-%.res): $(1)/run-%.res: $(1)/run-%.trc \
    $(1)/base.trc $(EXP_MK)
	$$(call EXP_response_recipe,run)

$$(EXP_OFF_$(1):%=$(1)/off-%.res): $(1)/off-%.res: $(1)/off-%.trc \
    $(1)/base.trc $(1)/factors.check $(EXP_MK)
	$$(call EXP_response_recipe,off)

# A trace removed after its responses (EXP_KEEP) is not made again
# while they are up to date.
.SECONDARY: $$(EXP_RUNS_$(1):%=$(1)/run-%.trc) $$(EXP_OFF_$(1):%=$(1)/off-%.trc)
endif

$(1)/runs.tsv: $(1)/design.tsv $$(EXP_RUNS_$(1):%=$(1)/run-%.res)
	$$(call EXP_table_recipe,run)

$(1)/offline.tsv: $(1)/design.tsv $$(EXP_OFF_$(1):%=$(1)/off-%.res)
	$$(call EXP_table_recipe,off)

$(1)/effects: $(1)/runs.tsv $(1)/factors
	$$(EXP_effects_recipe)

$(1)/offline-effects: $(1)/offline.tsv $(1)/factors
	$$(EXP_effects_recipe)

$(1)/verdict: $(1)/effects
	$$(EXP_verdict_recipe)

$(1)/offline-verdict: $(1)/offline-effects
	$$(EXP_verdict_recipe)

.PHONY: $(1)/verdict $(1)/offline-verdict
endef

# The including makefile's default goal stays what it was, or its next
# target when it had none yet.
EXP_dirs := $(patsubst %/,%,$(EXP_DIRS))
ifneq ($(strip $(EXP_dirs)),)
EXP_goal := $(.DEFAULT_GOAL)
-include $(EXP_dirs:%=%/runs.mk)
$(foreach d,$(EXP_dirs),$(eval $(call EXP_rules,$(d))))
.DEFAULT_GOAL := $(EXP_goal)
endif
