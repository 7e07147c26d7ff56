#!/usr/bin/env bash
# Builds the real servers some tests run against, from source with Go (test infrastructure only:
# the product stays Java): kube-apiserver and etcd for the operator's tests, Prometheus and
# promtool for its metrics and dashboard. Cached: a binary already built for these module versions
# is kept. Needs Go and the Go module proxy; a cold build takes ~10-15 min and a few GB of disk on
# 2 cores.
#   testinfra/build.sh [CACHE_DIR]   (default: $DS2_TESTINFRA_CACHE or ~/.cache/ds2/testinfra)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${1:-${DS2_TESTINFRA_CACHE:-$HOME/.cache/ds2/testinfra}}"
mkdir -p "$cache"
command -v go >/dev/null || { echo "testinfra/build.sh: Go is needed to build the test servers (go.dev/dl)" >&2; exit 1; }
build() { # name, module dir, package
  local key out
  key="$(cat "$here/$2/go.mod" "$here/$2/go.sum" | sha256sum | cut -c1-16)"
  out="$cache/$1-$key"
  if [ ! -x "$out" ]; then
    echo "building $1 for the tests (once)..." >&2
    (cd "$here/$2" && go build -trimpath -o "$out.tmp" "$3") && mv "$out.tmp" "$out"
  fi
  ln -sf "$out" "$cache/$1"
}
build kube-apiserver kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver
build etcd etcd go.etcd.io/etcd/server/v3
build prometheus prometheus github.com/prometheus/prometheus/cmd/prometheus
build promtool prometheus github.com/prometheus/prometheus/cmd/promtool
echo "$cache"
