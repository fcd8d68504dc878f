import { Counter, type Registry } from 'prom-client';
import { isPkcError } from '@pwa/errors';
import { quoteTypes, type QuoteType } from '../domain/quote-type';

export interface QuoteMetrics {
  quoteIssued(type: QuoteType): void;
  quoteRejected(type: QuoteType, error: unknown): void;
  consumed(): void;
  consumptionRejected(error: unknown): void;
}

/** `quotes_requests_total{type,outcome,code}` and `quote_consumptions_total{outcome,code}` on the service's registry. */
export function createQuoteMetrics(registry: Registry): QuoteMetrics {
  const requests = new Counter({
    name: 'quotes_requests_total',
    help: 'Partner quote requests by type and outcome: issued (code none) or rejected with its PKC code',
    labelNames: ['type', 'outcome', 'code'] as const,
    registers: [registry],
  });
  const consumptions = new Counter({
    name: 'quote_consumptions_total',
    help: 'Single-use quote consumptions by the confirm services: consumed (code none) or rejected with its PKC code',
    labelNames: ['outcome', 'code'] as const,
    registers: [registry],
  });
  for (const type of quoteTypes) requests.inc({ type, outcome: 'issued', code: 'none' }, 0);
  consumptions.inc({ outcome: 'consumed', code: 'none' }, 0);
  return {
    quoteIssued: (type) => requests.inc({ type, outcome: 'issued', code: 'none' }),
    quoteRejected: (type, error) => requests.inc({ type, outcome: 'rejected', code: answeredCodeOf(error) }),
    consumed: () => consumptions.inc({ outcome: 'consumed', code: 'none' }),
    consumptionRejected: (error) => consumptions.inc({ outcome: 'rejected', code: answeredCodeOf(error) }),
  };
}

/** The code the error handler answers for this error: its own PKC code, or PKC_7002 for anything else. */
export function answeredCodeOf(error: unknown): string {
  return isPkcError(error) ? error.code : 'PKC_7002';
}
