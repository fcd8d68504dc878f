import { readFileSync } from 'node:fs';
import path from 'node:path';
import { operationTable, PartnerApiClient } from '../../src';

/**
 * Every operation of docs/openapi.json has an SDK method of its operationId and a row of the
 * operation table with its method and path: a route added to the document without an SDK method
 * fails here.
 */
interface DocumentOperation {
  operationId: string;
  method: string;
  path: string;
  sandboxOnly: boolean;
}

const document = JSON.parse(readFileSync(path.resolve(__dirname, '../../../docs/openapi.json'), 'utf8')) as { paths: Record<string, Record<string, { operationId: string; 'x-sandbox-only'?: boolean }>> };
const documented: DocumentOperation[] = Object.entries(document.paths).flatMap(([pathName, item]) =>
  Object.entries(item).map(([method, operation]) => ({ operationId: operation.operationId, method: method.toUpperCase(), path: pathName, sandboxOnly: operation['x-sandbox-only'] === true })),
);

describe('the SDK covers the document', () => {
  test('when the document is read, then it has operations (the test below is not vacuous)', () => {
    expect(documented.length).toBeGreaterThanOrEqual(15);
  });

  test.each(documented.map((operation) => [operation.operationId, operation] as const))('when %s is in the document, then the client has a method of that name and the table its method and path', (operationId, operation) => {
    expect(typeof (PartnerApiClient.prototype as unknown as Record<string, unknown>)[operationId]).toBe('function');
    expect((operationTable as Record<string, { method: string; path: string }>)[operationId]).toMatchObject({ method: operation.method, path: operation.path });
  });

  test('when the operation table is compared with the document, then it names no operation the document lacks', () => {
    expect(Object.keys(operationTable).sort()).toEqual(documented.map((operation) => operation.operationId).sort());
  });

  test('when an operation is sandbox-only or a transfer or a collection request, then the SDK never counts it as safe to repeat', () => {
    const moneyMoving = documented.filter((operation) => operation.sandboxOnly || /transfer|collection\/request/.test(operation.path));
    expect(moneyMoving.length).toBeGreaterThanOrEqual(5);
    for (const operation of moneyMoving) {
      expect({ operationId: operation.operationId, retryClass: (operationTable as Record<string, { retryClass: string }>)[operation.operationId]?.retryClass }).not.toEqual({
        operationId: operation.operationId,
        retryClass: 'safe',
      });
    }
  });
});
