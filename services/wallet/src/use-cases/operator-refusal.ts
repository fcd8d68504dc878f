/** An operator's request that cannot be done (unknown user, missing wallet, a sandbox tool in production); the CLI prints the message. */
export class OperatorRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorRefusal';
  }
}
