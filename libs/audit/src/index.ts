export type { AuditActor, AuditTarget, AuditOutcome, AuditEntryInput, AuditEntry, AppendedAuditEntry, JsonValue } from './audit-entry';
export { AuditError, auditErrorCodes, type AuditErrorCode } from './audit-error';
export { auditMigrationsDirectory } from './migrations-directory';
export { appendAuditEntry, appendAuditEntryInTransaction } from './append-entry';
export { registerAuditMetrics, type AuditMetrics, type AuditMetricsSettings } from './audit-metrics';
export { verifyAuditChain, readAuditChainHead, type AuditChainVerification, type AuditChainProblem, type AuditChainAnchor, type VerifyAuditChainOptions } from './verify-chain';
export {
  searchAuditEntries,
  auditSearchPageSizeDefault,
  auditSearchPageSizeMax,
  type AuditSearchFilters,
  type AuditSearchPage,
  type AuditSearchResult,
} from './search-entries';
export {
  exportAuditEntries,
  auditCsvColumns,
  auditExportEntryCountMaxDefault,
  type AuditExport,
  type AuditExportFormat,
  type AuditExportOptions,
} from './export-entries';
export { canonicalJson } from './canonical-json';
export { entryHash, canonicalEntryText, genesisHash, entryHashVersion, type HashedEntryContent } from './entry-hash';
export { findSecretKeyPath, keyLooksSecret, secretKeyWords } from './secret-keys';
export { userAgentLengthMax, valuesLengthMax } from './entry-validation';
