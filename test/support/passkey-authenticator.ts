import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { encodeCBOR, type CBORType } from '@levischuck/tiny-cbor';

/**
 * A software WebAuthn authenticator for the tests: an ES256 (P-256) key pair per credential,
 * authenticator data with the RP ID hash, flags (user present and verified; attested credential
 * data at registration), a signature counter the test can set, clientDataJSON as a browser writes
 * it, and `none` attestation in CBOR. It answers the options the back-office gives with what
 * @simplewebauthn/browser would send, so the server's real verifier checks real signatures.
 */
export interface SoftwareCredential {
  credentialId: string;
  privateKey: KeyObject;
  /** The counter the next assertion carries after raising it; a test may set it lower to act as a clone. */
  counter: number;
  userHandle: string | undefined;
}

export interface RegistrationOptionsJson {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string; displayName: string };
  excludeCredentials?: { id: string }[];
}

export interface AuthenticationOptionsJson {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

const flags = { userPresent: 0x01, userVerified: 0x04, attestedCredentialData: 0x40 } as const;

function sha256(data: Buffer | string): Buffer {
  return createHash('sha256').update(data).digest();
}

function clientDataJson(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
}

function counterBytes(counter: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter);
  return bytes;
}

/** The credential's public key as COSE (EC2, ES256, P-256). */
function cosePublicKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  const key = new Map<number, CBORType>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, new Uint8Array(Buffer.from(String(jwk.x), 'base64url'))],
    [-3, new Uint8Array(Buffer.from(String(jwk.y), 'base64url'))],
  ]);
  return encodeCBOR(key);
}

export class SoftwareAuthenticator {
  readonly credentials: SoftwareCredential[] = [];

  constructor(private readonly origin: string) {}

  /** Makes a credential for the options (as navigator.credentials.create would) and the registration response JSON. */
  register(options: RegistrationOptionsJson, overrides: { origin?: string; userVerified?: boolean } = {}): { response: Record<string, unknown>; credential: SoftwareCredential } {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credentialIdBytes = randomBytes(32);
    const credentialId = credentialIdBytes.toString('base64url');
    const credential: SoftwareCredential = { credentialId, privateKey, counter: 0, userHandle: options.user.id };
    const lengthBytes = Buffer.alloc(2);
    lengthBytes.writeUInt16BE(credentialIdBytes.length);
    const attested = Buffer.concat([Buffer.alloc(16), lengthBytes, credentialIdBytes, Buffer.from(cosePublicKey(publicKey))]);
    const flagByte = flags.userPresent | (overrides.userVerified === false ? 0 : flags.userVerified) | flags.attestedCredentialData;
    const authenticatorData = Buffer.concat([sha256(rpId), Buffer.from([flagByte]), counterBytes(credential.counter), attested]);
    const attestationObject = encodeCBOR(new Map<string, CBORType>([['fmt', 'none'], ['attStmt', new Map<string, CBORType>()], ['authData', new Uint8Array(authenticatorData)]]));
    this.credentials.push(credential);
    return {
      credential,
      response: {
        id: credentialId,
        rawId: credentialId,
        type: 'public-key',
        response: {
          clientDataJSON: clientDataJson('webauthn.create', options.challenge, overrides.origin ?? this.origin).toString('base64url'),
          attestationObject: Buffer.from(attestationObject).toString('base64url'),
          transports: ['internal'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      },
    };
  }

  /**
   * Signs the options' challenge with a credential (as navigator.credentials.get would), raising
   * its counter first unless the test pins the counter the assertion carries.
   */
  assert(options: AuthenticationOptionsJson, credential: SoftwareCredential, overrides: { origin?: string; counter?: number; rpId?: string } = {}): Record<string, unknown> {
    const rpId = overrides.rpId ?? options.rpId ?? new URL(this.origin).hostname;
    if (overrides.counter === undefined) credential.counter += 1;
    const counter = overrides.counter ?? credential.counter;
    const authenticatorData = Buffer.concat([sha256(rpId), Buffer.from([flags.userPresent | flags.userVerified]), counterBytes(counter)]);
    const clientData = clientDataJson('webauthn.get', options.challenge, overrides.origin ?? this.origin);
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientData)]), credential.privateKey);
    return {
      id: credential.credentialId,
      rawId: credential.credentialId,
      type: 'public-key',
      response: {
        clientDataJSON: clientData.toString('base64url'),
        authenticatorData: authenticatorData.toString('base64url'),
        signature: signature.toString('base64url'),
        ...(credential.userHandle === undefined ? {} : { userHandle: credential.userHandle }),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
