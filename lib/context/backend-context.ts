/**
 * What the app's context parser asks of each backend (docs/design.md, section 4): its own keys with their defaults,
 * their parser and the request they make, the keys only its kind honours, and its refusals of a plan or a shared key.
 * Each backend's planner descriptor holds it as `BackendSizing.context`, so the shared parser reaches every backend
 * through lib/sizing/registry.ts and names none. Types only and no CDK imports, since `npm run plan` loads the
 * descriptors.
 */
import type { StoragePlan, StorageRequest } from '../sizing/plan-types';

/** The slice of a backend without keys of its own. */
export type NoContextKeys = Record<never, never>;

/** The key names of a slice of the typed context. */
export type KeyOf<S> = Extract<keyof S, string>;

/** Every key of a slice with its default: undefined when the key is absent unless given. */
export type ContextDefaults<S> = { readonly [K in KeyOf<S>]-?: S[K] | undefined };

/**
 * How a backend's parser reads its keys: a key's trimmed text, undefined when absent, as ContextValues' `raw` gives it.
 * A method, so that a descriptor of any slice is read as a descriptor of none.
 */
export interface KeyReader<K extends string> {
  raw(key: K): string | undefined;
}

/** The network keys a backend's keys may be checked against. */
export interface NetworkKeys {
  readonly vpcId?: string;
  readonly vpcFrom?: string;
  readonly availabilityZone?: string;
}

/** A backend's keys as parsed: its slice of the typed context, and what they ask of the planner. */
export interface ParsedKeys<S> {
  readonly context: S;
  /**
   * The request's fields these keys set: the backend's options, e.g. `fsxOpenZfs`.
   * @default - none
   */
  readonly request?: Partial<StorageRequest>;
}

/** A backend's own keys: `S` is its slice of the typed context, one optional member per key. */
export interface BackendKeys<S extends object> {
  /** Each key with its default, documented; the key table lists them in this order. */
  readonly defaults: ContextDefaults<S>;
  /**
   * Checks the keys' values, each message naming its key, and then their combination with the network keys. Called
   * only when one of them is given and the backend asked for is this one, since other backends refuse them.
   */
  parse(values: KeyReader<KeyOf<S>>, network: NetworkKeys): ParsedKeys<S>;
}

/** Keys of the shared table that only backends of one kind honour. */
export interface ExclusiveKeys {
  /** The keys, in the order they are checked. */
  readonly keys: readonly string[];
  /** The backends that honour them, in words: the refusal says `<key> applies to <holders> only`. */
  readonly holders: string;
  /**
   * The keys among them that are true/false switches, whose `false` is the same as leaving them out, so no refusal.
   * @default - none: any value of a key is refused
   */
  readonly switches?: readonly string[];
}

/**
 * What the stack lends a backend's props: what its keys' values alone cannot build. The subnet is the stack's own
 * (an `ec2.ISubnet`), passed on as it is, since a descriptor loads no CDK.
 */
export interface PropsLookups {
  /**
   * The subnet `id` of the stack's VPC, given by context key `key`, or refused naming the key; undefined until the VPC
   * lookup has run.
   */
  subnet(id: string, key: string): unknown;
}

/**
 * The facade's props a backend's keys set, by prop name, such as `{ fsxLustre: { ... } }`. The values are the
 * context's, so a prop typed as an aws-cdk-lib enum holds the enum's value as a string.
 */
export type BackendProps = Readonly<Record<string, unknown>>;

/** What a refusal of a plan may name: the request's capacity and throughput. */
export type PlanAsked = Pick<StorageRequest, 'capacityTiB' | 'throughputMBps'>;

/** One backend as the app's context parser knows it. */
export interface BackendContext<S extends object = NoContextKeys> {
  /**
   * Its own keys, which the key table lists and only this backend takes.
   * @default - none
   */
  readonly keys?: BackendKeys<S>;
  /**
   * Keys of the shared table only backends of its kind honour: a plan of any other backend refuses them once every
   * key's own grammar has passed. Descriptors of one kind share one object.
   * @default - none
   */
  readonly exclusiveKeys?: ExclusiveKeys;
  /**
   * Refuses a plan of this backend that the stack cannot hold, naming the key that made it so.
   * @default - every plan of the backend is held
   */
  readonly checkPlan?: (plan: StoragePlan, asked: PlanAsked) => void;
  /**
   * What a refusal of `nconnect` on a plan of this backend says is allowed, when its clients do not mount NFS.
   * @default - nconnect is taken
   */
  readonly nconnectRefusal?: string;
  /**
   * The facade's props its keys set, which the stack spreads into the server's. Called only when the backend is asked
   * for by name, since its keys are refused otherwise. A method, for the same reason as `KeyReader.raw`.
   * @default - its keys set no prop
   */
  props?(context: S, lookups: PropsLookups): BackendProps;
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/**
 * Every backend's slice of the typed context together, read from a registry's types such as `typeof BACKEND_SIZING`.
 * StorageServerContext adds it to the shared keys.
 */
export type ContextSlices<R> = UnionToIntersection<{
  [B in keyof R]: R[B] extends { readonly context?: BackendContext<infer S> } ? S : never;
}[keyof R]>;
