#!/bin/sh
# Chrome trace-event JSON: it parses (python3 -m json.tool), it holds
# one flow per message (an "s" and an "f" of the same id, from the send
# to the call that completed the receive), one complete slice per call
# and region, a track per rank; a small stream against the JSON worked
# out by hand.
. "$(dirname "$0")/lib.sh"

# The events of a JSON file, one per line, in Python (not our code).
events() {
	python3 -c '
import json, sys
for e in json.load(open(sys.argv[1]))["traceEvents"]:
    print(e["ph"], e.get("name", ""), e.get("tid", ""), e.get("ts", ""),
          e.get("dur", ""), e.get("id", ""), e.get("bp", ""))' "$1"
}

# --- A small stream, the JSON worked out by hand.
cat > "$tmp/s.trc" <<'EOF'
#trc 1 ranks=2
0.000000000 0 MK mark=init
0.000001000 0 PB fn=a"b\c
0.000002000 0 SB peer=1 tag=3 bytes=8
0.000002500 1 RB peer=* tag=3 bytes=8
0.000003000 0 SE peer=1 tag=3 bytes=8
0.000003250 1 RE peer=0 tag=3 bytes=8
0.000004000 1 RB peer=0 tag=4 bytes=16 req=1
0.000004500 1 WB req=1 op=wait
0.000005000 1 RE peer=0 tag=4 bytes=16 req=1
0.000005000 1 WE req=1 op=wait
0.000005200 0 SB peer=1 tag=4 bytes=16 req=7
0.000005200 0 SE peer=1 tag=4 bytes=16 req=7
0.000006000 0 PE fn=a"b\c
0.000006000 0 XB op=barrier bytes=0
0.000006000 1 XB op=barrier bytes=0
0.000006000 0 XE op=barrier bytes=0
0.000006000 1 XE op=barrier bytes=0
EOF
expect_exit 0 "small stream: exit 0" -- trc-cat --to chrome -o "$tmp/s.json" "$tmp/s.trc"
python3 -m json.tool "$tmp/s.json" > /dev/null; ok $? "small stream: python3 -m json.tool parses it"
events "$tmp/s.json" > "$out"
cat > "$tmp/want" <<'EOF'
M process_name     
M thread_name 0    
M thread_sort_index 0    
i mark=init 0 0.0   
M thread_name 1    
M thread_sort_index 1    
X send 0 2.0 1.0  
s message 0 2.0  1 
f message 1 2.5  1 e
X recv 1 2.5 0.75  
X irecv 1 4.0 0.0  
X wait 1 4.5 0.5  
s message 0 5.2  2 
f message 1 4.5  2 e
X isend 0 5.2 0.0  
X a"b\c 0 1.0 5.0  
X barrier 0 6.0 0.0  
X barrier 1 6.0 0.0  
EOF
is_file "$out" "$tmp/want" "small stream: the events worked out by hand (times in us)"
grep -q '"name":"a\\"b\\\\c"' "$tmp/s.json"; ok $? "small stream: a name's quote and backslash are escaped"

# --- trc-gen's patterns and a receive completed before its send is
# seen (as clocks that disagree write): one flow per message.
for p in ring halo allreduce master-worker; do
	trc-gen -p $p -n 6 -e 3000 -s 2 > "$tmp/$p.trc"
	trc-cat --to chrome -o "$tmp/$p.json" "$tmp/$p.trc"
	python3 -m json.tool "$tmp/$p.json" > /dev/null; ok $? "$p: python3 -m json.tool parses it"
	events "$tmp/$p.json" > "$tmp/ev"
	msgs=$(awk '$3 == "SE"' "$tmp/$p.trc" | wc -l | tr -d ' ')
	calls=$(awk '$3 == "SB" || $3 == "RB" || $3 == "WB" || $3 == "XB" || $3 == "PB"' "$tmp/$p.trc" | wc -l | tr -d ' ')
	is "$(awk '$1 == "s"' "$tmp/ev" | wc -l | tr -d ' ')" "$msgs" "$p: one flow start per message ($msgs)"
	is "$(awk '$1 == "f"' "$tmp/ev" | wc -l | tr -d ' ')" "$msgs" "$p: one flow end per message"
	# (no dur: the id is the fifth field)
	is "$(awk '$1 == "s" || $1 == "f" { n[$5]++ } END { for (i in n) if (n[i] != 2) bad++; print bad + 0 }' "$tmp/ev")" 0 \
		"$p: each flow id has its start and its end"
	is "$(awk '$1 == "X"' "$tmp/ev" | wc -l | tr -d ' ')" "$calls" "$p: one slice per call and region ($calls)"
	is "$(awk '$1 == "M" && $2 == "thread_name"' "$tmp/ev" | wc -l | tr -d ' ')" 6 "$p: a track per rank"
done
printf '#trc 1\n1.0 1 RE peer=0 tag=1 bytes=4\n1.5 0 SB peer=1 tag=1 bytes=4\n2.0 0 SE peer=1 tag=1 bytes=4\n' > "$tmp/skew.trc"
trc-cat -v --to chrome -o "$tmp/skew.json" "$tmp/skew.trc" 2> "$err"
events "$tmp/skew.json" | awk '$1 == "s" || $1 == "f"' > "$out"
is "$(cat "$out")" "s message 0 1500000.0  1 
f message 1 1000000.0  1 e" "a receive seen before its send: still one flow"
is "$(cat "$err")" "trc-cat: $tmp/skew.json: 1 ends without their begins not written" \
	"an RE with no RB: counted"
printf '#trc 1\n1.0 0 SB peer=1 tag=1 bytes=4\n1.2 0 SE peer=1 tag=1 bytes=4\n2.0 0 SB peer=1 tag=2 bytes=4\n' > "$tmp/cut.trc"
trc-cat -v --to chrome -o - "$tmp/cut.trc" > "$out" 2> "$err"
python3 -m json.tool "$out" > /dev/null; ok $? "a call never ended: still valid JSON"
is "$(cat "$err")" "trc-cat: -: 1 calls or regions never ended not written
trc-cat: -: 1 message ends never paired (no flow) not written" "a call never ended, a message unpaired: counted"
expect_exit 2 "a missing folder: exit 2" -- trc-cat --to chrome -o "$tmp/no/x.json" "$tmp/s.trc"
is "$(cat "$err")" "trc-cat: $tmp/no/x.json: No such file or directory" "a missing folder: message"
done_testing
