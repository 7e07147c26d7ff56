//go:build tools

// Builds go.etcd.io/etcd/server/v3 (the etcd binary) for ds2's tests (not part of the product).
package tools

import _ "go.etcd.io/etcd/server/v3"
