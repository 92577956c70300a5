#!/usr/bin/env bash
# The reference outputs of smatch 1.0.4 (PyPI) that tests/test_smatch_cli.py compares mrp-smatch with.
# Made with:  python3 -m venv /work/peers/smatch && /work/peers/smatch/bin/pip install smatch==1.0.4
#             SMATCH=/work/peers/smatch/bin/smatch.py SHARED=../shared tests/data/smatch/make.sh
# Each NAME.out is smatch.py's standard output for the command in commands.txt; NAME.counts holds the
# "best match number" smatch -v printed for each pair of the same run (its hill climber is seeded at
# random, so a run's numbers go with its own counts).  -v writes to standard error only.
set -euo pipefail
cd "$(dirname "$0")"
SMATCH=${SMATCH:-/work/peers/smatch/bin/smatch.py}
PY=${PY:-$(dirname "$SMATCH")/python}
SHARED=${SHARED:-../../../../shared}
pairs=(
    "coli $SHARED/data/pairs/amr/coli.system.amr $SHARED/data/pairs/amr/coli.gold.amr"
    "test $SHARED/data/pairs/amr/test2.amr $SHARED/data/pairs/amr/test1.amr"
    "input $SHARED/data/pairs/smatch/test_input1.txt $SHARED/data/pairs/smatch/test_input2.txt"
)
small=("" "--pr" "--ms" "--ms --pr" "--significant 4" "--pr --significant 6" "--ms --pr --significant 4"
       "-r 10 --pr" "--significant 0")
large=("" "--pr --significant 4" "--ms --pr --significant 6")
: > commands.txt
for entry in "${pairs[@]}"; do
    read -r name first second <<< "$entry"
    if [ "$name" = coli ]; then options=("${large[@]}"); else options=("${small[@]}"); fi
    for opts in "${options[@]}"; do
        tag=$(echo "$name $opts" | tr -s ' -' '_' | sed 's/_$//')
        # shellcheck disable=SC2086
        "$PY" "$SMATCH" -v $opts -f "$first" "$second" > "$tag.out" 2> "$tag.stderr"
        grep '^best match number' "$tag.stderr" | awk '{print $4}' > "$tag.counts"
        rm "$tag.stderr"
        printf '%s\t%s\t%s\t%s\n' "$tag" "$opts" "$(basename "$first")" "$(basename "$second")" >> commands.txt
    done
done
