{{/* Release-wide name prefix (63-char DNS limit, leaving room for "-disbursements"). */}}
{{- define "pwa.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 48 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 48 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Name of one service's objects. Call with (dict "root" $ "name" $name). */}}
{{- define "pwa.serviceName" -}}
{{- printf "%s-%s" (include "pwa.fullname" .root) .name -}}
{{- end -}}

{{- define "pwa.selectorLabels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{- define "pwa.labels" -}}
{{ include "pwa.selectorLabels" . }}
app.kubernetes.io/part-of: partner-wallet-api
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}

{{- define "pwa.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/*
Plain (non-secret) environment of one service as a YAML map: what the ConfigMap holds and what the
migrations Job sets inline (the ConfigMap does not exist yet when a pre-install hook runs).
*/}}
{{- define "pwa.plainEnv" -}}
{{- $root := .root -}}
{{- $svc := index $root.Values.services .name -}}
{{- $env := dict "HOST" "0.0.0.0" "PORT" (toString $svc.port) "ENVIRONMENT" $root.Values.environment "LOG_LEVEL" $root.Values.logLevel -}}
{{- range $callee := $svc.calls -}}
{{- $target := index $root.Values.services $callee -}}
{{- $_ := set $env (printf "%s_URL" (upper $callee)) (printf "http://%s:%v" (include "pwa.serviceName" (dict "root" $root "name" $callee)) $target.port) -}}
{{- end -}}
{{- $_ := set $env "OTEL_ENABLED" (toString $root.Values.tracing.enabled) -}}
{{- if $root.Values.tracing.enabled -}}
{{- $_ := set $env "OTEL_EXPORTER_OTLP_ENDPOINT" $root.Values.tracing.otlpEndpoint -}}
{{- end -}}
{{- if eq .name "gateway" -}}
{{- $_ := set $env "ADMIN_HOST" "0.0.0.0" -}}
{{- $_ := set $env "ADMIN_PORT" (toString $svc.adminPort) -}}
{{- $_ := set $env "TLS_MODE" $root.Values.gateway.tlsMode -}}
{{- if eq $root.Values.gateway.tlsMode "terminate" -}}
{{- $_ := set $env "TLS_CERT_FILE" "/etc/partner-wallet/tls/tls.crt" -}}
{{- $_ := set $env "TLS_KEY_FILE" "/etc/partner-wallet/tls/tls.key" -}}
{{- else -}}
{{- $_ := set $env "TRUSTED_PROXIES" $root.Values.gateway.trustedProxies -}}
{{- end -}}
{{- end -}}
{{- range $key, $value := $svc.env -}}
{{- $_ := set $env $key (toString $value) -}}
{{- end -}}
{{- toYaml $env -}}
{{- end -}}

{{/* env entries that read the service's secrets by reference (secretKeyRef), never by value. */}}
{{- define "pwa.secretEnv" -}}
{{- $root := .root -}}
{{- $svc := index $root.Values.services .name -}}
{{- range $envName := $svc.secretEnv }}
{{- $ref := index $root.Values.secretRefs $envName }}
- name: {{ $envName }}
  valueFrom:
    secretKeyRef:
      name: {{ $ref.secretName }}
      key: {{ $ref.key }}
{{- end }}
{{- end -}}

{{- define "pwa.httpPortName" -}}
{{- if eq . "gateway" }}admin{{ else }}http{{ end -}}
{{- end -}}
