export * from './wire-fields';
export * from './wallet';
export * from './quotes';
export * from './read-answer';
export * from './auth';
export * from './partner-identity';
export * from './partner-access';
