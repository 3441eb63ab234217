/**
 * Jest snapshot serializer that replaces 64-hex asset hashes with a placeholder, so snapshots only change when the
 * template's meaning changes. The hashes are in S3 object keys, asset paths and Lambda code hashes.
 */
const ASSET_HASH = /[0-9a-f]{64}/g;

module.exports = {
  test: (value: unknown): boolean => typeof value === 'string' && /[0-9a-f]{64}/.test(value),
  serialize: (value: string): string => JSON.stringify(value.replace(ASSET_HASH, '[ASSET-HASH]')),
};
