export { createApp, type CreateAppOptions, type ServiceApp } from './app';
export {
  declareBodyTypes,
  type BodyTypes,
  rawJsonBodyOf,
  BodyRefusal,
  contentTypeVerdictOf,
  contentEncodingProblemOf,
  supportedContentEncodings,
  type BodyRefusalType,
  type LargeBodyLimit,
} from './body-rules';
export { jsonBodyAsWritten } from './json-as-written';
export { jsonNestingDepthMax, jsonNestingExceeds } from './json-depth';
export { findUnsafeText, textProblemOf, textProblemDescriptions, type TextProblem, type UnsafeText } from './text-safety';
export { requestTargetProblemOf } from './request-target';
export { createHttpMetrics, type HttpMetrics } from './metrics';
export { operationalRoutes, beginDraining, isDraining, resetDrainingForTests, type ReadinessCheck } from './health';
export { createErrorHandler, notFoundHandler, sendErrorEnvelope, unreadableBodyMessageOf } from './error-handler';
export { requestIdMiddleware, requestIdOf, requestIdHeader, traceparentHeader } from './request-id';
export { listen, listenServer, closeServer, type RunningServer } from './server';
export {
  createInternalJsonClient,
  isInternalTransportError,
  InternalTransportError,
  internalTransportErrorCode,
  type InternalCallOptions,
  type InternalJsonClient,
  type InternalJsonClientOptions,
  type InternalJsonResponse,
  type InternalRawRequest,
  type InternalRawResponse,
  type InternalTransportFailure,
} from './internal-client';
export {
  circuitBreakerStateOf,
  circuitBreakerStateValue,
  createCircuitBreakerStates,
  type BreakerStateSource,
  type CircuitBreakerStates,
  type WatchBreaker,
} from './breaker-metrics';
export { createCircuitBreaker, isBreakerRefusal, type BreakerSettings, type CircuitBreakerOptions, type GuardedCall } from './circuit-breaker';
export {
  createUpstreamClient,
  isUpstreamFailure,
  neverReachedUpstream,
  UpstreamFailure,
  upstreamFailureCode,
  type UpstreamAnswer,
  type UpstreamCall,
  type UpstreamClient,
  type UpstreamClientOptions,
  type UpstreamFailureReason,
  type UpstreamSettings,
} from './upstream-client';
export { listenTlsDispatcher, isTlsClientHello, type RunningDispatcher, type TlsDispatcherOptions } from './tls-dispatcher';
export { recordServedCertificate, servedCertificateObserver } from './tls-metrics';
export { certificateFactsOf, readTlsPair, tlsPairProblem, watchTlsFiles, type TlsCertificateFacts, type TlsFileWatch, type TlsFiles, type TlsPair } from './tls-files';
export { csvCell, csvRecord, neutraliseFormula } from './csv';
