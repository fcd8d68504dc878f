{{/*
The chart's name: nameOverride, else partner-wallet. It is the app.kubernetes.io/name label, which
the selectors use, so it is chosen at the first install and never changed (a Deployment's selector
is immutable).
*/}}
{{- define "pwa.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 41 | trimSuffix "-" -}}
{{- end -}}

{{/*
Release-wide name prefix: fullnameOverride, else <release>-<name> (just <release> when it already
contains the name). 41 characters at most, so the longest name built on it,
"<prefix>-disbursements-migrate" (a Job, whose name is a label value), stays within 63.
*/}}
{{- define "pwa.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 41 | trimSuffix "-" -}}
{{- else -}}
{{- $name := include "pwa.name" . -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 41 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 41 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Name of one service's objects. Call with (dict "root" $ "name" $name). */}}
{{- define "pwa.serviceName" -}}
{{- printf "%s-%s" (include "pwa.fullname" .root) .name -}}
{{- end -}}

{{- define "pwa.selectorLabels" -}}
app.kubernetes.io/name: {{ include "pwa.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{/* The chart's own labels of an object (the selector's and the release's). */}}
{{- define "pwa.ownLabels" -}}
{{ include "pwa.selectorLabels" . }}
app.kubernetes.io/part-of: partner-wallet-api
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}

{{/*
An object's labels (call with (dict "root" $ "name" <component>), and "extra" for labels of its own
kind, e.g. serviceMonitor.labels): the chart's own, over "extra", over commonLabels. The chart's
own always win: the selectors use them.
*/}}
{{- define "pwa.labels" -}}
{{- $labels := merge (include "pwa.ownLabels" . | fromYaml) (.extra | default dict) (.root.Values.commonLabels | default dict) -}}
{{- toYaml $labels -}}
{{- end -}}

{{/*
The image's repository: image.repository, or with global.imageRegistry set, the same path on that
registry (a mirror): the repository's own registry host, when it names one (a first part with a
dot or a colon, or localhost), is replaced by global.imageRegistry; otherwise it is prefixed.
*/}}
{{- define "pwa.imageRepository" -}}
{{- $repository := .Values.image.repository -}}
{{- $registry := (.Values.global | default dict).imageRegistry | default "" | trimSuffix "/" -}}
{{- if $registry -}}
{{- $parts := splitList "/" $repository -}}
{{- $first := first $parts -}}
{{- if and (gt (len $parts) 1) (or (contains "." $first) (contains ":" $first) (eq $first "localhost")) -}}
{{- $repository = rest $parts | join "/" -}}
{{- end -}}
{{- $repository = printf "%s/%s" $registry $repository -}}
{{- end -}}
{{- $repository -}}
{{- end -}}

{{/* The one image of every service: repository@digest when image.digest is set, else repository:tag. */}}
{{- define "pwa.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" (include "pwa.imageRepository" .) .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" (include "pwa.imageRepository" .) (default .Chart.AppVersion .Values.image.tag) -}}
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
over "extra" (labels of the chart's too), over the service's podLabels, over the global podLabels,
over commonLabels. The chart's own always win: the selectors use them. Without "service" (a pod of no service: the database-roles hook), the
global ones only.
*/}}
{{- define "pwa.podLabels" -}}
{{- $svc := index .root.Values.services (.service | default "") | default dict -}}
{{- $labels := merge (include "pwa.ownLabels" . | fromYaml) (.extra | default dict) ($svc.podLabels | default dict) (.root.Values.podLabels | default dict) (.root.Values.commonLabels | default dict) -}}
{{- toYaml $labels -}}
{{- end -}}

{{/* A Deployment's own annotations (not its pods'): the service's deploymentAnnotations over the global ones. */}}
{{- define "pwa.deploymentAnnotations" -}}
{{- $svc := index .root.Values.services .service | default dict -}}
{{- $annotations := merge (deepCopy ($svc.deploymentAnnotations | default dict)) (.root.Values.deploymentAnnotations | default dict) -}}
{{- if $annotations -}}
{{- toYaml $annotations -}}
{{- end -}}
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
{{- /* The pre-upgrade Jobs migrate; the pods only check that they did (no session lock through a pooler). */ -}}
{{- $_ := set $env "MIGRATIONS_AT_BOOT" (ternary "verify" "apply" (and $root.Values.migrations.enabled true)) -}}
{{- $_ := set $env "DATABASE_POOL_MAX" (include "pwa.databasePoolMax" $svc) -}}
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

{{/*
env entries that read the service's secrets by reference (secretKeyRef), never by value. AMQP_URL
comes from the service's own amqpSecretRef when it has one (one RabbitMQ user per service).
*/}}
{{- define "pwa.secretEnv" -}}
{{- $root := .root -}}
{{- $svc := index $root.Values.services .name -}}
{{- if and $svc.amqpSecretRef (not (has "AMQP_URL" ($svc.secretEnv | default list))) -}}
{{- fail (printf "services.%s.amqpSecretRef is set but AMQP_URL is not in its secretEnv: the service does not use the bus" .name) -}}
{{- end -}}
{{- range $envName := $svc.secretEnv }}
{{- $ref := index $root.Values.secretRefs $envName }}
{{- if and (eq $envName "AMQP_URL") $svc.amqpSecretRef }}{{ $ref = $svc.amqpSecretRef }}{{ end }}
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
The previous key of each rotation and the one service that reads it (services/<name>/src/config.ts):
auth decrypts its signing keys with AUTH_KEY_ENCRYPTION_KEY_PREVIOUS, the webhooks service opens
webhook secrets with WEBHOOK_SECRET_SEALING_KEY_PREVIOUS (auth seals with the current key only and
does not read it), the back-office opens TOTP secrets with BACKOFFICE_SEALING_KEY_PREVIOUS.
*/}}
{{- define "pwa.previousKeyReaders" -}}
AUTH_KEY_ENCRYPTION_KEY_PREVIOUS: auth
WEBHOOK_SECRET_SEALING_KEY_PREVIOUS: webhooks
BACKOFFICE_SEALING_KEY_PREVIOUS: backoffice
{{- end -}}

{{/*
A service's previous keys (call with (dict "root" $ "name" <service>)), by secretKeyRef on the
Secret that secretRefs names, each only while secretRefs names it (a rotation's overlap). Only the
Deployment gets them: a migration Job reads no key, and no key is ever in a ConfigMap
(values.schema.json refuses these names, and every *_KEY, *_SECRET and *_PASSWORD, in env and
extraEnv).
*/}}
{{- define "pwa.previousKeySecretEnv" -}}
{{- $root := .root -}}
{{- $service := .name -}}
{{- $readers := include "pwa.previousKeyReaders" . | fromYaml -}}
{{- range $envName := keys $readers | sortAlpha }}
{{- if and (eq (index $readers $envName) $service) (hasKey $root.Values.secretRefs $envName) }}
{{- $ref := index $root.Values.secretRefs $envName }}
- name: {{ $envName }}
  valueFrom:
    secretKeyRef:
      name: {{ $ref.secretName }}
      key: {{ $ref.key }}
{{- end }}
{{- end }}
{{- end -}}

{{/*
The Redis Sentinels' password by reference (docs/redis-topologies.md), only while secretRefs names
it, to the Deployments that read Redis (REDIS_URL in their secretEnv). The sentinels' addresses and
master name are plain settings (extraEnv: REDIS_SENTINELS, REDIS_SENTINEL_MASTER_NAME).
*/}}
{{- define "pwa.redisSentinelSecretEnv" -}}
{{- $root := .root -}}
{{- $svc := index $root.Values.services .name -}}
{{- if and (has "REDIS_URL" ($svc.secretEnv | default list)) (hasKey $root.Values.secretRefs "REDIS_SENTINEL_PASSWORD") }}
{{- $ref := $root.Values.secretRefs.REDIS_SENTINEL_PASSWORD }}
- name: REDIS_SENTINEL_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $ref.secretName }}
      key: {{ $ref.key }}
{{- end }}
{{- end -}}

{{/*
The back-office's optional secret by reference: the identity provider's client secret (when OIDC
is on). Only the Deployment gets it: its migration Job has no use for it. (Its previous sealing key
comes from pwa.previousKeySecretEnv.)
*/}}
{{- define "pwa.backofficeOptionalSecretEnv" -}}
{{- $root := . -}}
{{- $names := list -}}
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

{{/*
What an SRE adds to a service's containers and pods (docs/chart-adaptation.md). Each helper is
called with (dict "root" $ "service" <service>), or without "service" for a pod of no service (the
database-roles hook), which then gets the global values only; each renders a YAML list (or map),
or nothing.

pwa.extraEnv: the global extraEnv, then the service's; an entry of the service replaces a global
one of the same name. values.schema.json refuses the chart's own names (secrets, ports, TLS, URLs).
*/}}
{{- define "pwa.extraEnv" -}}
{{- $svc := index .root.Values.services (.service | default "") | default dict -}}
{{- $own := $svc.extraEnv | default list -}}
{{- $ownNames := list -}}
{{- range $own }}{{ $ownNames = append $ownNames .name }}{{ end -}}
{{- $entries := list -}}
{{- range (.root.Values.extraEnv | default list) -}}
{{- if not (has .name $ownNames) }}{{ $entries = append $entries . }}{{ end -}}
{{- end -}}
{{- $entries = concat $entries $own -}}
{{- if $entries -}}
{{- toYaml $entries -}}
{{- end -}}
{{- end -}}

{{/* pwa.extraEnvFrom: the global extraEnvFrom, then the service's (rendered before the chart's ConfigMap, whose keys therefore win). */}}
{{- define "pwa.extraEnvFrom" -}}
{{- $svc := index .root.Values.services (.service | default "") | default dict -}}
{{- $entries := concat (.root.Values.extraEnvFrom | default list) ($svc.extraEnvFrom | default list) -}}
{{- if $entries -}}
{{- toYaml $entries -}}
{{- end -}}
{{- end -}}

{{/*
pwa.extraVolumes and pwa.extraVolumeMounts: the global ones, then the service's; a volume of the
service replaces a global one of the same name, a mount one at the same mountPath. values.schema.json
admits only the volume types of the restricted Pod Security Standard (configMap, secret, projected,
emptyDir, downwardAPI, csi, ephemeral, persistentVolumeClaim) and refuses the chart's own names
(tmp, tls) and paths (/tmp, /etc/partner-wallet/tls).
*/}}
{{- define "pwa.extraVolumes" -}}
{{- include "pwa.mergedList" (dict "global" .root.Values.extraVolumes "service" (index .root.Values.services (.service | default "") | default dict).extraVolumes "key" "name") -}}
{{- end -}}

{{- define "pwa.extraVolumeMounts" -}}
{{- include "pwa.mergedList" (dict "global" .root.Values.extraVolumeMounts "service" (index .root.Values.services (.service | default "") | default dict).extraVolumeMounts "key" "mountPath") -}}
{{- end -}}

{{/* The global list then the service's, an entry of the service replacing a global one with the same .key; YAML, or nothing. */}}
{{- define "pwa.mergedList" -}}
{{- $key := .key -}}
{{- $own := .service | default list -}}
{{- $ownKeys := list -}}
{{- range $own }}{{ $ownKeys = append $ownKeys (index . $key) }}{{ end -}}
{{- $entries := list -}}
{{- range (.global | default list) -}}
{{- if not (has (index . $key) $ownKeys) }}{{ $entries = append $entries . }}{{ end -}}
{{- end -}}
{{- $entries = concat $entries $own -}}
{{- if $entries -}}
{{- toYaml $entries -}}
{{- end -}}
{{- end -}}

{{/*
The timing of one probe (call with (dict "root" $ "service" <service> "probe" "livenessProbe"
"defaults" <dict>)): the chart's defaults, under the global <probe> values, under the service's.
Only timing: the path and the port stay the chart's (values.schema.json admits nothing else).
*/}}
{{- define "pwa.probeTiming" -}}
{{- $svc := index .root.Values.services .service | default dict -}}
{{- $timing := merge (deepCopy (index $svc .probe | default dict)) (index .root.Values .probe | default dict) .defaults -}}
{{- toYaml $timing -}}
{{- end -}}

{{/*
A value of the service when it sets the key (an empty value clears the global one), else the global
value, as YAML, or nothing when empty: lifecycle.
*/}}
{{- define "pwa.serviceOrGlobal" -}}
{{- $svc := index .root.Values.services .service | default dict -}}
{{- $value := ternary (index $svc .key) (index .root.Values .key) (hasKey $svc .key) -}}
{{- if $value -}}
{{- toYaml $value -}}
{{- end -}}
{{- end -}}

{{/*
A Deployment's topologySpreadConstraints: the service's topologySpreadConstraints when it sets the
key (an empty list clears the global ones), else the global ones, each without a labelSelector given
the service's selector labels; and first the chart's own (one replica per node where possible),
unless one of those already spreads over kubernetes.io/hostname (it then replaces the chart's).
*/}}
{{- define "pwa.topologySpreadConstraints" -}}
{{- $root := .root -}}
{{- $svc := index $root.Values.services .service | default dict -}}
{{- $selector := include "pwa.selectorLabels" (dict "root" $root "name" .service) | fromYaml -}}
{{- $given := ternary $svc.topologySpreadConstraints $root.Values.topologySpreadConstraints (hasKey $svc "topologySpreadConstraints") | default list -}}
{{- $constraints := list -}}
{{- $byHostname := false -}}
{{- range $given -}}
{{- $constraint := deepCopy . -}}
{{- if not (hasKey $constraint "labelSelector") -}}
{{- $_ := set $constraint "labelSelector" (dict "matchLabels" $selector) -}}
{{- end -}}
{{- if eq $constraint.topologyKey "kubernetes.io/hostname" }}{{ $byHostname = true }}{{ end -}}
{{- $constraints = append $constraints $constraint -}}
{{- end -}}
{{- if not $byHostname -}}
{{- $constraints = prepend $constraints (dict "maxSkew" 1 "topologyKey" "kubernetes.io/hostname" "whenUnsatisfiable" "ScheduleAnyway" "labelSelector" (dict "matchLabels" $selector)) -}}
{{- end -}}
{{- toYaml $constraints -}}
{{- end -}}

{{/*
A Deployment's sidecars: the global sidecars, then the service's, each with the chart's restricted
containerSecurityContext under its own securityContext (values.schema.json refuses any field there
that would weaken it: privilege escalation, privileged, root, a writable root filesystem, added
capabilities). A name used twice in the pod fails the render.
*/}}
{{- define "pwa.sidecars" -}}
{{- $root := .root -}}
{{- $service := .service -}}
{{- $svc := index $root.Values.services $service | default dict -}}
{{- $names := list $service -}}
{{- $sidecars := list -}}
{{- range $sidecar := concat ($root.Values.sidecars | default list) ($svc.sidecars | default list) -}}
{{- if has $sidecar.name $names -}}
{{- fail (printf "sidecars of services.%s: the pod already has a container named %q (global sidecars and the service's share one pod)" $service $sidecar.name) -}}
{{- end -}}
{{- $names = append $names $sidecar.name -}}
{{- $copy := deepCopy $sidecar -}}
{{- $_ := set $copy "securityContext" (mustMergeOverwrite (deepCopy $root.Values.containerSecurityContext) (deepCopy ($sidecar.securityContext | default dict))) -}}
{{- $sidecars = append $sidecars $copy -}}
{{- end -}}
{{- if $sidecars -}}
{{- toYaml $sidecars -}}
{{- end -}}
{{- end -}}

{{/* "true" when the cluster (or helm template's --api-versions) serves the Prometheus Operator's API, else empty. */}}
{{- define "pwa.monitoringApi" -}}
{{- if .Capabilities.APIVersions.Has "monitoring.coreos.com/v1" }}true{{ end -}}
{{- end -}}

{{/* "true" when the cluster (or helm template's --api-versions) serves the Gateway API's v1, else empty. */}}
{{- define "pwa.gatewayApi" -}}
{{- if .Capabilities.APIVersions.Has "gateway.networking.k8s.io/v1" }}true{{ end -}}
{{- end -}}

{{/*
Fails unless the gateway can sit behind an ingress or a Gateway API Gateway (call with (dict "root"
$ "what" <the setting>)): gateway.tlsMode proxy (the proxy terminates TLS; the gateway serves plain
HTTP) and gateway.trustedProxies naming the proxy's addresses, not the default loopback (in a
cluster that trusts no one, so every partner would share the proxy's address in the per-IP limits
and no request would count as HTTPS).
*/}}
{{- define "pwa.gatewayBehindProxy" -}}
{{- if ne .root.Values.gateway.tlsMode "proxy" -}}
{{- fail (printf "%s needs gateway.tlsMode proxy (the ingress or Gateway terminates TLS)" .what) -}}
{{- end -}}
{{- if eq .root.Values.gateway.trustedProxies "loopback" -}}
{{- fail (printf "%s needs gateway.trustedProxies set to the ingress controller's or Gateway's addresses (e.g. its pods' CIDR): loopback trusts no proxy in a cluster" .what) -}}
{{- end -}}
{{- end -}}

{{/*
The egress of a pod that only talks to PostgreSQL (the migration and database-roles hooks, the
backup CronJob): DNS, and PostgreSQL's ports and peers (networkPolicy.dns, .dependencies.postgres).
*/}}
{{- define "pwa.databaseJobEgress" -}}
{{- $np := .Values.networkPolicy -}}
- ports:
    {{- range $np.dns.ports }}
    - { port: {{ . }}, protocol: UDP }
    - { port: {{ . }}, protocol: TCP }
    {{- end }}
  {{- with $np.dns.peers }}
  to:
    {{- toYaml . | nindent 4 }}
  {{- end }}
- ports:
    {{- range $np.dependencies.postgres.ports }}
    - { port: {{ . }}, protocol: TCP }
    {{- end }}
  {{- with $np.dependencies.postgres.peers }}
  to:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end -}}

{{/* The backup image: backup.image, else image.repository with the image's tag and "-backup". */}}
{{- define "pwa.backupImage" -}}
{{- $image := .Values.backup.image | default dict -}}
{{- $repository := $image.repository | default (include "pwa.imageRepository" .) -}}
{{- $tag := $image.tag | default (printf "%s-backup" (default .Chart.AppVersion .Values.image.tag)) -}}
{{- printf "%s:%s" $repository $tag -}}
{{- end -}}
