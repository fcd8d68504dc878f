{{/*
The PostgreSQL connection budget (docs/connection-budget.md). Each service with a database opens up
to DATABASE_POOL_MAX connections per pod; PostgreSQL refuses a connection past max_connections
("too many clients already"), and a refused connection is a refused request.
*/}}

{{/* One service's pool size (call with the service's values): databasePoolMax, else the services' own default of 10 (libs/config base-service). */}}
{{- define "pwa.databasePoolMax" -}}
{{- .databasePoolMax | default 10 | int | toString -}}
{{- end -}}

{{/*
The budget as YAML: for each service with a database, its most pods (autoscaling.maxReplicas, or
replicas without autoscaling) plus one (the Deployments roll with maxSurge 1 and maxUnavailable 0,
so a rollout at the maximum briefly runs one pod more), times its pool; one connection for each
migration Job (one direct connection each; counted as if they ran together, as an Argo CD sync wave
runs them; the database-roles hook runs alone, before them); the total, and the limit
database.maxConnections - database.reservedConnections. A pod's boot-time migration closes its one
connection before its pool opens, so it adds nothing.
*/}}
{{- define "pwa.connectionBudget" -}}
{{- $root := . -}}
{{- $database := $root.Values.database -}}
{{- $shares := list -}}
{{- $total := 0 -}}
{{- $databaseServices := include "pwa.databaseServices" $root | fromYamlArray -}}
{{- range $name := $databaseServices -}}
{{- $svc := index $root.Values.services $name -}}
{{- $autoscaled := $svc.autoscaling.enabled -}}
{{- $pods := ternary $svc.autoscaling.maxReplicas $svc.replicas $autoscaled | int -}}
{{- $poolMax := include "pwa.databasePoolMax" $svc | int -}}
{{- $connections := mul (add $pods 1) $poolMax -}}
{{- $total = add $total $connections -}}
{{- $shares = append $shares (dict "name" $name "pods" $pods "podsFrom" (ternary "maxReplicas" "replicas" $autoscaled) "poolMax" $poolMax "connections" $connections) -}}
{{- end -}}
{{- $migrationJobs := ternary (len $databaseServices) 0 $root.Values.migrations.enabled -}}
{{- $hookConnections := max $migrationJobs (ternary 1 0 $root.Values.databaseRoles.provision) -}}
{{- $total = add $total $hookConnections -}}
{{- $limit := sub ($database.maxConnections | int) ($database.reservedConnections | int) -}}
{{- toYaml (dict "services" $shares "hookConnections" $hookConnections "total" $total "limit" $limit "maxConnections" ($database.maxConnections | int) "reservedConnections" ($database.reservedConnections | int) "pooler" $database.pooler.enabled) -}}
{{- end -}}

{{/* Each service's share, as one line: "auth (maxReplicas 4 + 1) x pool 2 = 10, ...; hook Jobs 8 (one connection each)". */}}
{{- define "pwa.connectionBudgetShares" -}}
{{- $shares := list -}}
{{- range .services -}}
{{- $shares = append $shares (printf "%s (%s %d + 1) x pool %d = %d" .name .podsFrom (int .pods) (int .poolMax) (int .connections)) -}}
{{- end -}}
{{- printf "%s; hook Jobs %d (one connection each)" (join ", " $shares) (int .hookConnections) -}}
{{- end -}}

{{/*
Fails the render when the services may open more connections than PostgreSQL leaves them, naming
the sum and each service's share, unless database.pooler.enabled (PgBouncer's own pools then bound
what reaches PostgreSQL).
*/}}
{{- define "pwa.checkConnectionBudget" -}}
{{- $budget := include "pwa.connectionBudget" . | fromYaml -}}
{{- if and (not $budget.pooler) (gt (int $budget.total) (int $budget.limit)) -}}
{{- $message := printf "database connection budget exceeded: at their maximum replicas the services may open %d PostgreSQL connections, more than the %d that database.maxConnections (%d) minus database.reservedConnections (%d) leaves them. Shares: %s. Lower services.<name>.databasePoolMax or services.<name>.autoscaling.maxReplicas; or raise the server's max_connections and state it in database.maxConnections; or put PgBouncer in front and set database.pooler.enabled (docs/connection-budget.md)" (int $budget.total) (int $budget.limit) (int $budget.maxConnections) (int $budget.reservedConnections) (include "pwa.connectionBudgetShares" $budget) -}}
{{- fail $message -}}
{{- end -}}
{{- end -}}
