import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { AdmissionPorts } from '../domain/admit-partner-request';
import type { TokenEndpointPorts } from '../domain/guard-token-endpoint';
import { countInSlidingWindow } from './sliding-window';
import { readClientLockout, recordCredentialFailure, recordCredentialSuccess, type TokenEndpointKeys } from './token-endpoint-store';

export interface RedisPortSettings {
  /** REDIS_KEY_PREFIX; every key of the gateway lives under `<prefix>gateway:`. */
  keyPrefix: string;
  tokenEndpointSourceLimitPerMinute: number;
  clientLockoutSeconds: number;
  trustedSourceSeconds: number;
}

const oneMinuteMs = 60_000;

/** The admission and token-endpoint ports that keep their counts in Redis (shared by all replicas). */
export function createRedisPorts(redis: Redis, settings: RedisPortSettings): Pick<AdmissionPorts, 'countPartnerRequest'> & TokenEndpointPorts {
  const key = (name: string): string => `${settings.keyPrefix}gateway:${name}`;
  const tokenKeys = (clientId: string, sourceAddress: string): TokenEndpointKeys => ({
    failures: key(`token-failures:${clientId}`),
    trustedSource: key(`token-trusted:${clientId}:${sourceAddress}`),
  });
  return {
    countPartnerRequest: (partnerId, limitPerMinute) =>
      countInSlidingWindow(redis, { key: key(`rate:partner:${partnerId}`), limit: limitPerMinute, windowMs: oneMinuteMs, requestId: randomUUID() }),
    countSourceRequest: (sourceAddress) =>
      countInSlidingWindow(redis, {
        key: key(`rate:token-source:${sourceAddress}`),
        limit: settings.tokenEndpointSourceLimitPerMinute,
        windowMs: oneMinuteMs,
        requestId: randomUUID(),
      }),
    readClientLockout: (clientId, sourceAddress) => readClientLockout(redis, tokenKeys(clientId, sourceAddress)),
    recordCredentialFailure: (clientId) => recordCredentialFailure(redis, tokenKeys(clientId, ''), settings.clientLockoutSeconds),
    recordCredentialSuccess: (clientId, sourceAddress) => recordCredentialSuccess(redis, tokenKeys(clientId, sourceAddress), settings.trustedSourceSeconds),
  };
}
