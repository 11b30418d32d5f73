#!/bin/bash
# oddsmith on a Slurm cluster: one array task per shard, then one merge
# job that starts when every shard has succeeded.
#
#   jobs=$(sbatch --parsable --array=1-8 docs/recipes/slurm-shards.sh shard scenarios/dice-roll.toml --mode mc --trials 100000000)
#   sbatch --dependency=afterok:$jobs docs/recipes/slurm-shards.sh merge
#
# Number the array from 1 (--array=1-N): shards count from 1, and N is
# taken from SLURM_ARRAY_TASK_COUNT. Arguments after the scenario go to
# every shard's `oddsmith run` and must be the same for all of them. Shard
# I writes shards/I/, the merge writes run/ (both relative to the
# directory you submit from). Set ODDSMITH to the binary when it is not
# on PATH. tests/shard.rs runs this script (with the two variables Slurm
# would set) and checks the merged run against a single one.
#SBATCH --job-name=oddsmith
#SBATCH --cpus-per-task=8
#SBATCH --output=oddsmith-%A_%a.log
set -euo pipefail

oddsmith=${ODDSMITH:-oddsmith}
usage="usage: slurm-shards.sh shard SCENARIO [run options] | slurm-shards.sh merge"

case ${1:-} in
  shard)
    scenario=${2:?$usage}
    shift 2
    # oddsmith uses the CPUs Slurm gives the task (its affinity mask).
    "$oddsmith" run "$scenario" "$@" --quiet \
      --shard "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT" \
      --out "shards/$SLURM_ARRAY_TASK_ID"
    ;;
  merge)
    "$oddsmith" merge shards/* --out run
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
