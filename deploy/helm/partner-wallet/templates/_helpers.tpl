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

{{/* The one image of every service: repository@digest when image.digest is set, else repository:tag. */}}
{{- define "pwa.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}
{{- end -}}

{{/* The ServiceAccount of the services' pods. */}}
{{- define "pwa.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "pwa.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The ServiceAccount of the hook Jobs (migrations, database-roles): a hook account of its own when the chart creates accounts (the release's one does not exist yet on a first install). */}}
{{- define "pwa.migrationsServiceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- printf "%s-migrate" (include "pwa.serviceAccountName" .) | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- include "pwa.serviceAccountName" . -}}
{{- end -}}
{{- end -}}

{{/*
Pod labels: the chart's labels (call with (dict "root" $ "name" <component> "service" <service>)),
over the service's podLabels, over the global podLabels. The chart's own always win: the selectors
use them. Without "service" (a pod of no service: the database-roles hook), the global ones only.
*/}}
{{- define "pwa.podLabels" -}}
{{- $svc := index .root.Values.services (.service | default "") | default dict -}}
{{- $labels := merge (include "pwa.labels" . | fromYaml) ($svc.podLabels | default dict) (.root.Values.podLabels | default dict) -}}
{{- toYaml $labels -}}
{{- end -}}

{{/* Pod annotations: the given ones (a dict in .own), over the service's, over the global ones. */}}
{{- define "pwa.podAnnotations" -}}
{{- $svc := index .root.Values.services (.service | default "") | default dict -}}
{{- $annotations := merge (.own | default dict) ($svc.podAnnotations | default dict) (.root.Values.podAnnotations | default dict) -}}
{{- if $annotations }}
{{- toYaml $annotations -}}
{{- end -}}
{{- end -}}

{{/*
Placement of one service's pods (call with (dict "root" $ "service" <service>)): nodeSelector,
tolerations, affinity and priorityClassName of the service when it sets the key (an empty value
clears the global one), else the global value; without "service", the global values. Renders
pod-spec lines at indent 0.
*/}}
{{- define "pwa.podPlacement" -}}
{{- $root := .root -}}
{{- $svc := index $root.Values.services (.service | default "") | default dict -}}
{{- $placement := dict -}}
{{- range $key := list "priorityClassName" "nodeSelector" "tolerations" "affinity" -}}
{{- $value := ternary (index $svc $key) (index $root.Values $key) (hasKey $svc $key) -}}
{{- if $value -}}
{{- $_ := set $placement $key $value -}}
{{- end -}}
{{- end -}}
{{- if $placement -}}
{{- toYaml $placement -}}
{{- end -}}
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
{{- $calleeCtx := dict "root" $root "name" $callee -}}
{{- $_ := set $env (include "pwa.calleeUrlName" $callee) (printf "http://%s:%s" (include "pwa.serviceName" $calleeCtx) (include "pwa.calleePort" $calleeCtx)) -}}
{{- end -}}
{{- if $svc.database -}}
{{- $_ := set $env "MIGRATION_LOCK_TIMEOUT_MS" (toString $root.Values.migrations.lockTimeoutMs) -}}
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
{{- if eq .name "backoffice" -}}
{{- $bo := $root.Values.backoffice -}}
{{- if not (hasPrefix "https://" $bo.publicUrl) -}}
{{- fail "backoffice.publicUrl must be the https:// address operators open (no path)" -}}
{{- end -}}
{{- $_ := set $env "BACKOFFICE_PUBLIC_URL" $bo.publicUrl -}}
{{- $_ := set $env "TLS_MODE" $bo.tlsMode -}}
{{- if eq $bo.tlsMode "terminate" -}}
{{- $_ := set $env "TLS_CERT_FILE" "/etc/partner-wallet/tls/tls.crt" -}}
{{- $_ := set $env "TLS_KEY_FILE" "/etc/partner-wallet/tls/tls.key" -}}
{{- else -}}
{{- $_ := set $env "BACKOFFICE_TRUSTED_PROXY_HOPS" (toString $bo.trustedProxyHops) -}}
{{- end -}}
{{- if include "pwa.backofficeOidcEnabled" $root -}}
{{- $_ := set $env "BACKOFFICE_OIDC_ISSUER_URL" $bo.oidc.issuerUrl -}}
{{- $_ := set $env "BACKOFFICE_OIDC_CLIENT_ID" $bo.oidc.clientId -}}
{{- end -}}
{{- end -}}
{{- if eq .name "dashboard" -}}
{{- $db := $root.Values.dashboard -}}
{{- if not (hasPrefix "https://" $db.publicUrl) -}}
{{- fail "dashboard.publicUrl must be the https:// address partners' teams open (no path)" -}}
{{- end -}}
{{- $hostOf := dict "dashboard" (trimPrefix "https://" $db.publicUrl | splitList ":" | first) "backoffice" (trimPrefix "https://" $root.Values.backoffice.publicUrl | splitList ":" | first) -}}
{{- if eq $hostOf.dashboard $hostOf.backoffice -}}
{{- fail "dashboard.publicUrl has the back-office's host name: each console has a host of its own (cookies do not tell ports apart)" -}}
{{- end -}}
{{- if eq (toString $svc.internalPort) (toString $svc.port) -}}
{{- fail "services.dashboard.internalPort must differ from its port: the internal route is never served on the public port" -}}
{{- end -}}
{{- $_ := set $env "DASHBOARD_PUBLIC_URL" $db.publicUrl -}}
{{- $_ := set $env "DASHBOARD_INTERNAL_PORT" (toString $svc.internalPort) -}}
{{- $_ := set $env "DASHBOARD_INTERNAL_HOST" "0.0.0.0" -}}
{{- $_ := set $env "TLS_MODE" $db.tlsMode -}}
{{- if eq $db.tlsMode "terminate" -}}
{{- $_ := set $env "TLS_CERT_FILE" "/etc/partner-wallet/tls/tls.crt" -}}
{{- $_ := set $env "TLS_KEY_FILE" "/etc/partner-wallet/tls/tls.key" -}}
{{- else -}}
{{- $_ := set $env "DASHBOARD_TRUSTED_PROXY_HOPS" (toString $db.trustedProxyHops) -}}
{{- end -}}
{{- if and (include "pwa.dashboardSmtpEnabled" $root) $db.smtp.from -}}
{{- $_ := set $env "DASHBOARD_SMTP_FROM" $db.smtp.from -}}
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

{{/*
"true" when the back-office signs people in with the identity provider (backoffice.oidc.issuerUrl
set), else empty. Like the service's config, the issuer, the client id and the client secret's
reference come together or not at all: half a setting fails the render, never the pods' start.
*/}}
{{- define "pwa.backofficeOidcEnabled" -}}
{{- $oidc := .Values.backoffice.oidc | default dict -}}
{{- $secretRef := hasKey .Values.secretRefs "BACKOFFICE_OIDC_CLIENT_SECRET" -}}
{{- if $oidc.issuerUrl -}}
{{- if not (hasPrefix "https://" $oidc.issuerUrl) -}}
{{- fail "backoffice.oidc.issuerUrl must be the identity provider's https:// issuer" -}}
{{- end -}}
{{- if not $oidc.clientId -}}
{{- fail "backoffice.oidc.clientId is required when backoffice.oidc.issuerUrl is set" -}}
{{- end -}}
{{- if not $secretRef -}}
{{- fail "secretRefs.BACKOFFICE_OIDC_CLIENT_SECRET is required when backoffice.oidc.issuerUrl is set (the client secret, from a Secret you create)" -}}
{{- end -}}
true
{{- else if or $oidc.clientId $secretRef -}}
{{- fail "backoffice.oidc.clientId and secretRefs.BACKOFFICE_OIDC_CLIENT_SECRET need backoffice.oidc.issuerUrl: set all three, or none" -}}
{{- end -}}
{{- end -}}

{{/*
The back-office's optional secrets by reference: the previous sealing key while it is replaced
(when secretRefs names it), and the identity provider's client secret (when OIDC is on). Only the
Deployment gets them: its migration Job has no use for either.
*/}}
{{- define "pwa.backofficeOptionalSecretEnv" -}}
{{- $root := . -}}
{{- $names := list -}}
{{- if hasKey $root.Values.secretRefs "BACKOFFICE_SEALING_KEY_PREVIOUS" }}{{ $names = append $names "BACKOFFICE_SEALING_KEY_PREVIOUS" }}{{ end -}}
{{- if include "pwa.backofficeOidcEnabled" $root }}{{ $names = append $names "BACKOFFICE_OIDC_CLIENT_SECRET" }}{{ end -}}
{{- range $envName := $names }}
{{- $ref := index $root.Values.secretRefs $envName }}
- name: {{ $envName }}
  valueFrom:
    secretKeyRef:
      name: {{ $ref.secretName }}
      key: {{ $ref.key }}
{{- end }}
{{- end -}}

{{/*
"true" when the dashboard e-mails invitations (secretRefs names DASHBOARD_SMTP_URL), else empty.
dashboard.smtp.from without the relay is half a setting: it fails the render, never the pods' start.
*/}}
{{- define "pwa.dashboardSmtpEnabled" -}}
{{- if hasKey .Values.secretRefs "DASHBOARD_SMTP_URL" -}}
true
{{- else if .Values.dashboard.smtp.from -}}
{{- fail "dashboard.smtp.from needs secretRefs.DASHBOARD_SMTP_URL (the relay, from a Secret you create): set both, or neither" -}}
{{- end -}}
{{- end -}}

{{/*
The dashboard's optional secret by reference: the SMTP relay's URL (it holds the relay's
credentials), when secretRefs names it. Only the Deployment gets it: its migration Job sends no mail.
*/}}
{{- define "pwa.dashboardOptionalSecretEnv" -}}
{{- $root := . -}}
{{- if include "pwa.dashboardSmtpEnabled" $root }}
{{- $ref := $root.Values.secretRefs.DASHBOARD_SMTP_URL }}
- name: DASHBOARD_SMTP_URL
  valueFrom:
    secretKeyRef:
      name: {{ $ref.secretName }}
      key: {{ $ref.key }}
{{- end }}
{{- end -}}

{{/*
The services that own a schema (a database block), sorted, as a YAML list. Refuses a block whose
runtimeKey is its ownerKey: the Deployment would get the owner role.
*/}}
{{- define "pwa.databaseServices" -}}
{{- $names := list -}}
{{- range $name, $svc := .Values.services -}}
{{- with $svc.database -}}
{{- if eq .runtimeKey .ownerKey -}}
{{- fail (printf "services.%s.database: runtimeKey and ownerKey must differ (the Deployment gets only the runtime role's URL)" $name) -}}
{{- end -}}
{{- $names = append $names $name -}}
{{- end -}}
{{- end -}}
{{- toYaml $names -}}
{{- end -}}

{{/*
The database env entries of one service (call with (dict "root" $ "name" <service> "owner" <bool>)),
by secretKeyRef on its own database Secret: DATABASE_URL (the runtime role) always, and
MIGRATION_DATABASE_URL (the owner role) only with "owner" true (its migration Job). "prefix" names
them <PREFIX>_DATABASE_URL and <PREFIX>_MIGRATION_DATABASE_URL instead (the database-roles hook).
*/}}
{{- define "pwa.databaseEnv" -}}
{{- $svc := index .root.Values.services .name -}}
{{- $prefix := "" -}}
{{- if .prefix -}}{{- $prefix = printf "%s_" .prefix -}}{{- end -}}
{{- with $svc.database }}
- name: {{ $prefix }}DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ .secretName }}
      key: {{ .runtimeKey }}
{{- if $.owner }}
- name: {{ $prefix }}MIGRATION_DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ .secretName }}
      key: {{ .ownerKey }}
{{- end }}
{{- end }}
{{- end -}}

{{/* The Secret of the TLS pair a service terminates with, or nothing (the gateway and the two consoles in terminate mode). */}}
{{- define "pwa.tlsSecretName" -}}
{{- if and (eq .name "gateway") (eq .root.Values.gateway.tlsMode "terminate") -}}
{{- .root.Values.gateway.tls.secretName -}}
{{- else if and (eq .name "backoffice") (eq .root.Values.backoffice.tlsMode "terminate") -}}
{{- .root.Values.backoffice.tls.secretName -}}
{{- else if and (eq .name "dashboard") (eq .root.Values.dashboard.tlsMode "terminate") -}}
{{- .root.Values.dashboard.tls.secretName -}}
{{- end -}}
{{- end -}}

{{/*
How a caller reaches a callee (call pwa.calleePort with (dict "root" $ "name" <callee>), and
pwa.calleeUrlName with the callee's name): the dashboard on its internal port as
DASHBOARD_INTERNAL_URL (only the back-office may call it: values.schema.json), every other service
on its port as <NAME>_URL. The NetworkPolicies use the same port.
*/}}
{{- define "pwa.calleePort" -}}
{{- $target := index .root.Values.services .name -}}
{{- if eq .name "dashboard" -}}
{{- toString $target.internalPort -}}
{{- else -}}
{{- toString $target.port -}}
{{- end -}}
{{- end -}}

{{- define "pwa.calleeUrlName" -}}
{{- if eq . "dashboard" -}}
DASHBOARD_INTERNAL_URL
{{- else -}}
{{- printf "%s_URL" (upper .) -}}
{{- end -}}
{{- end -}}

{{/*
The named container/Service port of a service's probes and /metrics (call with the service's name):
the gateway's admin port, the dashboard's internal port (its public port, behind the public ingress,
answers 404 there), every other service's http port. The Deployment's probes, the ServiceMonitor
and the NetworkPolicy's metricsFrom rule all use it.
*/}}
{{- define "pwa.operationalPortName" -}}
{{- if eq . "gateway" }}admin{{ else if eq . "dashboard" }}internal{{ else }}http{{ end -}}
{{- end -}}
