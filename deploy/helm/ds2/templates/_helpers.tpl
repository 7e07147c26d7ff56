{{- define "ds2.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "ds2.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "ds2.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "ds2.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "ds2.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* What ds2 may do to Flink resources: read, watch, and patch the spec; never status. */}}
{{- define "ds2.flinkRules" -}}
- apiGroups: ["flink.apache.org"]
  resources: ["flinkdeployments", "flinksessionjobs"]
  verbs: ["get", "list", "watch", "patch"]
# A native-mode job gets the task managers its namespace's ResourceQuotas leave room for.
- apiGroups: [""]
  resources: ["resourcequotas"]
  verbs: ["get", "list"]
# Events are counted as Kubernetes does: created once, then patched (fabric8 reads before it patches).
- apiGroups: [""]
  resources: ["events"]
  verbs: ["create", "get", "patch"]
{{- with .Values.flinkAccess.credentialsSecret }}
# The Flink credentials of each namespace: that one Secret, by name, read only.
- apiGroups: [""]
  resources: ["secrets"]
  resourceNames: [{{ . | quote }}]
  verbs: ["get"]
{{- end }}
{{- end -}}
