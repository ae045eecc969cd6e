#!/usr/bin/env bash
# End-to-end checks of `flashxxl machine`: presets, JSON, config files, and the errors users see.
set -u
bin=$1
source "$(dirname "$0")/check_lib.bash"
check "describe hybrid-2009" 0 "static_data -> ssd" "$bin" machine --no-probe
check "probe prints both devices" 0 "hdd1 +rand_read" "$bin" machine --machine two-hdd-2009 --volume 1MiB
check "json is parseable" 0 '"placement"' "$bin" machine --json --no-probe
"$bin" machine --json --machine modern --volume 1MiB > "$work/m.json" && python3 -c "import json,sys; d=json.load(open('$work/m.json')); assert len(d['devices'])==2 and len(d['probe'])==16, d" \
    && echo "ok   json probe has 2 devices x 8 patterns" || { echo "FAIL json probe"; fail=1; }
check "unknown preset lists presets" 2 "hybrid-2009, two-hdd-2009, modern" "$bin" machine --machine hybrid-2010
printf 'flash=memory,64MiB,memory name=ssd model=hama-ssd-2009\ndisk=memory,16Q,memory name=hdd\n' > "$work/bad.cfg"
check "bad size names file, line and field" 2 "bad.cfg:2: field 'size'" "$bin" machine --config "$work/bad.cfg"
printf 'flash=memory,64MiB,memory name=ssd model=hama-ssd-2009 chonk=1\n' > "$work/bad2.cfg"
check "unknown model parameter" 2 "bad2.cfg:1.*chonk" "$bin" machine --config "$work/bad2.cfg"
check "missing config file" 2 "cannot open machine config" "$bin" machine --config "$work/nope.cfg"
printf 'flash=memory,64MiB,memory name=ssd model=hama-ssd-2009\ndisk=%s/hdd.img,64MiB,syscall name=hdd model=barracuda-7200.11\nplacement=single device=hdd\n' "$work" > "$work/good.cfg"
check "file-backed config" 0 "everything -> hdd" "$bin" machine --config "$work/good.cfg" --volume 1MiB
[ ! -e "$work/hdd.img" ] && echo "ok   backing file removed" || { echo "FAIL backing file left behind"; fail=1; }
echo "precious" > "$work/hdd.img"
check "refuses a file it did not create" 2 "already exists" "$bin" machine --config "$work/good.cfg"
grep -q precious "$work/hdd.img" && echo "ok   foreign file untouched" || { echo "FAIL foreign file modified"; fail=1; }
check "placement override" 0 "random_striping" "$bin" machine --no-probe --placement random_striping
check "placement with options" 0 "stream .*-> hdd" "$bin" machine --no-probe --placement "per_role hot=ssd scratch=ssd stream=hdd"
check "placement with options puts hot on ssd" 0 "hot .*-> ssd" "$bin" machine --no-probe --placement "per_role hot=ssd scratch=ssd stream=hdd"
check "placement option without =" 2 "placement option 'hot' of 'per_role hot' is not KEY=VALUE" "$bin" machine --no-probe --placement "per_role hot"
check "bad block size" 2 "multiples of 4 KiB" "$bin" machine --small-block 1000
check "list names every placement policy" 0 "per_role" "$bin" machine --list
check "list names the model presets" 0 "hama-ssd-2009" "$bin" machine --list
check "roles say where a vector lands" 0 "stream .*-> hdd +vector" "$bin" machine --no-probe
"$bin" machine --list --json > "$work/list.json" && python3 -c "import json; d=json.load(open('$work/list.json')); assert {p['name'] for p in d['placement_policies']} >= {'flash_aware','per_role','single','random_striping'}, d; assert len(d['model_presets']) >= 3 and len(d['machine_presets']) >= 3, d" \
    && echo "ok   --list --json has the three tables" || { echo "FAIL --list --json"; fail=1; }
exit $fail
