#!/usr/bin/env bash
# Fuzz every target for FUZZ_SECONDS (20) seconds each, from its committed
# corpus; any crash (a panic, a failed check, a hang) fails the run, after
# every target has had its turn. Installs cargo-fuzz when it is missing.
#
#   FUZZ_SECONDS=60 fuzz/run.sh             every target, 60 s each
#   fuzz/run.sh webhook_kannel command      these targets only
#   FUZZ_TARGET_DIR=/some/cache fuzz/run.sh build there instead of fuzz/target
#
# The committed corpus is only read: what the fuzzer finds goes to a scratch
# folder, so a run leaves the tree as it was (crashes go to fuzz/artifacts/).
set -euo pipefail
cd "$(dirname "$0")"

# cargo-fuzz needs nightly flags (sanitizer coverage passes); this stable
# toolchain takes them with RUSTC_BOOTSTRAP.
export RUSTC_BOOTSTRAP=1
export CARGO_TERM_COLOR=never
seconds="${FUZZ_SECONDS:-20}"

started=$SECONDS
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz: installing cargo-fuzz"
  cargo install cargo-fuzz --locked --version '^0.13' --quiet
fi

# No sanitizer: the code under test is safe Rust, and what we look for is a
# panic; 16 codegen units: a cold build in a few minutes (see README.md).
build=(-s none --codegen-units 16)
if [ -n "${FUZZ_TARGET_DIR:-}" ]; then
  build+=(--target-dir "$FUZZ_TARGET_DIR")
fi

if [ $# -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <(cargo fuzz list)
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

echo "fuzz: building every target"
if ! cargo fuzz build "${build[@]}" >"$scratch/build.log" 2>&1; then
  tail -n 60 "$scratch/build.log"
  exit 1
fi
echo "fuzz: built in $((SECONDS - started)) s"
failed=()
for t in "${targets[@]}"; do
  mkdir -p "$scratch/$t" "corpus/$t"
  log="$scratch/$t.log"
  # Scratch first: libFuzzer writes new inputs to the first folder only.
  if cargo fuzz run "${build[@]}" "$t" "$scratch/$t" "corpus/$t" -- \
    -max_total_time="$seconds" -timeout=10 -max_len=8192 \
    -print_final_stats=1 >"$log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    echo "fuzz: $t ok, $runs inputs in ${seconds} s"
  else
    echo "fuzz: $t FAILED:"
    grep -v '^#[0-9]' "$log" | tail -n 40
    failed+=("$t")
  fi
done

echo "fuzz: ${#targets[@]} targets ran in $((SECONDS - started)) s, ${#failed[@]} crashed ${failed[*]:-}"
[ ${#failed[@]} -eq 0 ]
