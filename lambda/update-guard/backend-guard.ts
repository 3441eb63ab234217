/**
 * What the update guard knows of one backend: the shape of a guard descriptor. Each backend's descriptor lives in
 * backends/, and the registry in backends.ts holds one per backend. The shared files read the registry and name no
 * backend: validation, the policy table, watched, held, messages and the handler.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import type { Backend } from '../register/backend';
import type { AdministrativeActionView } from './growth-interval';
import type { LayoutField, StorageLayout } from './layout';
import type { Objection, Refusal, UpdatePolicy } from './policy';
import type { WatchedType } from './watched-types';
import type { TaggedResource } from './wire';

/** How a grammar check reports: `fail` throws naming the field, `check` skips a value that is a token at synth time. */
export interface Checks {
  readonly isUnresolved: (value: unknown) => boolean;
  readonly fail: (field: LayoutField, rule: string, value: unknown) => never;
  readonly check: (field: LayoutField, value: string, ok: boolean, rule: string) => void;
}

/**
 * What EC2 or FSx says of a backend's resources, by which held.ts tells the backend of a server's dropped resources.
 */
export interface ShownBy {
  /** DescribeFileSystems' FileSystemType of its file system. */
  readonly fileSystemType?: string;
  /** Whether its instance's type has instance store; `false` when its EBS volumes hold the data. */
  readonly instanceStore?: boolean;
}

/**
 * A backend and its descriptor as the registry holds them. A rule or sentence that several descriptors share is given
 * the backends that share it, in the registry's order, so that its words can name them.
 */
export interface GuardEntry {
  readonly backend: Backend;
  readonly guard: BackendGuard;
}

/** What the backends sharing a sentence say of the resources a Create found, or undefined. */
export type FoundSentence = (found: readonly TaggedResource[], sharing: readonly GuardEntry[]) => string | undefined;

/**
 * A change FSx takes only hours after the last of its kind, judged from the file system's actions: see
 * growth-interval.ts.
 */
export interface IntervalRule {
  /** Whether the deploy asks for such a change, given old and new layouts of the same backend. */
  readonly applies: (o: StorageLayout, n: StorageLayout) => boolean;
  /** The refusal when the last such change was asked for too recently, or undefined; `sharing` are the rule's backends. */
  readonly refusal: (
    o: StorageLayout, n: StorageLayout, actions: readonly AdministrativeActionView[], nowMs: number, acceptDataLoss: boolean,
    sharing: readonly GuardEntry[],
  ) => Refusal | undefined;
}

/** The sources a backend's guide gives for rules it shares with others: each a quote and its row in docs/sources/. */
export interface SharedSources {
  /** The wait between two storage increases. */
  readonly storageInterval?: string;
}

/**
 * A layout field whose policy is per backend: every one but `backend`, whose row in policies.ts holds on all of them.
 */
export type BackendField = Exclude<LayoutField, 'backend'>;

/** One backend's guard descriptor. */
export interface BackendGuard {
  /**
   * The backend-owned layout fields this backend sets. A field that some backend owns is `''`, or an empty list, on
   * every backend that does not list it. The fields no backend lists are every backend's.
   */
  readonly fields: readonly BackendField[];
  /** The grammar of the fields it sets, run after the fields it does not set were found empty. */
  readonly validate: (layout: StorageLayout, checks: Checks) => void;
  /** The `EncryptionKey` of the account's AWS managed key, the other value a KMS key ARN. */
  readonly managedKey: string;
  /** Its rows of the policy table in policies.ts; a field without a row is allowed on it. */
  readonly policies: { readonly [F in BackendField]?: UpdatePolicy };
  /**
   * What replacing a watched resource of a type says on this backend, where watched.ts's wording is not its own: the
   * objection, or undefined when the replacement is allowed.
   */
  readonly replaced: { readonly [T in WatchedType]?: (layout: StorageLayout) => Objection | undefined };
  /**
   * What usually changes a watched property of its resources, by property path, for a refusal's safe path, where
   * watched.ts's list has no entry.
   * @default - none
   */
  readonly causes?: Readonly<Record<string, string>>;
  /** What EC2 or FSx says of its resources, for held.ts. */
  readonly shownBy: ShownBy;
  /**
   * The safe path of a Create over resources tagged as the server's, where some are of this backend's kinds: the
   * backend to pin. Backends the tags cannot tell apart share one sentence, which messages.ts gives once.
   */
  readonly pin: FoundSentence;
  /**
   * The way to bring such resources' data into the new server, where this backend has one.
   * @default - none
   */
  readonly restore?: FoundSentence;
  /** The changes FSx takes only hours apart on this backend. */
  readonly intervals: readonly IntervalRule[];
  /**
   * Where this backend's guide is the source that a rule shared with other backends quotes.
   * @default - none
   */
  readonly sources?: SharedSources;
}
