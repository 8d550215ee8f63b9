# untraced.awk - untraced.h, a counting wrapper for each call of
# untraced.list:
#	awk -f lib/mpi/untraced.awk lib/mpi/untraced.list >lib/mpi/untraced.h
# Each wrapper is weak, so that a wrapper of the tracer's own for the
# same call (wrap.c) wins at link time and the list may run ahead.
BEGIN {
	print "/* untraced.h - made by untraced.awk from untraced.list: do not edit. */"
	n = 0
}
/^#/ || NF == 0 { next }
{
	line = $0
	sub(/;[ \t]*$/, "", line)
	open = index(line, "(")
	head = substr(line, 1, open - 1)
	params = substr(line, open + 1)
	sub(/\)[ \t]*$/, "", params)
	name = head
	sub(/^.*[ \t*]/, "", name)
	type = substr(head, 1, length(head) - length(name))
	sub(/[ \t]+$/, "", type)
	k = split(params, p, ",")
	args = ""
	for (i = 1; i <= k; i++) {
		a = p[i]
		gsub(/\[\]/, "", a)
		sub(/[ \t]+$/, "", a)
		if (!match(a, /[A-Za-z_][A-Za-z0-9_]*$/)) {
			print FILENAME ":" FNR ": no name for parameter " i > "/dev/stderr"
			exit 2
		}
		args = args (i > 1 ? ", " : "") substr(a, RSTART, RLENGTH)
	}
	names[n] = name
	body[n] = sprintf("EXPORT __attribute__((weak)) %s\n%s(%s)\n{\n\tTR_UNTRACED_COUNT(%d);\n\treturn P%s(%s);\n}\n", type, name, params, n, name, args)
	n++
}
END {
	printf "\n#define TR_UNTRACED_N %d\n\n", n
	print "static const char *const tr_untraced_name[TR_UNTRACED_N] = {"
	for (i = 0; i < n; i++)
		printf "\t\"%s\",\n", names[i]
	print "};"
	for (i = 0; i < n; i++)
		printf "\n%s", body[i]
}
