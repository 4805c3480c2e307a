#!/bin/sh
#SBATCH --job-name=gamut-split
#SBATCH --array=0-30
#SBATCH --output="/work/main/runs/clobber-4x9/slurm-%a.log"
exec '/work/main/target/release/gamut' part '/work/main/runs/clobber-4x9' "$SLURM_ARRAY_TASK_ID"
