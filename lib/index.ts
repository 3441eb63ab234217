// Public API: everything another CDK app imports from this package.
export * from './sizing';
export * from './context';
export * from './storage-server';
export * from './storage-server-stack';
export * from './snapshot-policy';
export * from './recovery-alarm';
export * from './registration';
export * from './bootstrap';
export * from './client-mount';
export * from './clusterware';
