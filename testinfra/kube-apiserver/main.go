// Builds k8s.io/kubernetes/cmd/kube-apiserver for ds2's tests (not part of the product).
package main

import _ "k8s.io/kubernetes/cmd/kube-apiserver/app"

func main() {}
