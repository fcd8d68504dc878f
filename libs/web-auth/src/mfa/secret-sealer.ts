/**
 * Encrypts a secret at rest and opens it again, bound to associated data (for example
 * `operator:<id>:totp`) so a sealed value copied onto another record does not open. The services
 * pass functions over libs/sealing (AES-256-GCM, their own key); a key service could stand behind
 * the same shape, hence the promises.
 */
export interface SecretSealer {
  seal(plaintext: Buffer, associatedData: string): string | Promise<string>;
  /**
   * Throws when the sealed value, the key or the associated data is wrong. The buffer returned
   * belongs to the caller, which zeroes it once the code is checked.
   */
  open(sealed: string, associatedData: string): Buffer | Promise<Buffer>;
}
