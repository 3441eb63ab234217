/**
 * How a synth message names a setting: by the context key in the app (`-c snapshotRetain=0`), by the prop in a library
 * app (`snapshots.retain: 0`), since a library user cannot pass the app's context keys and the app's user has no props.
 * The app's stack marks itself with {@link namesSettingsByContext}; any other scope is a library app's.
 */
import type { IConstruct } from 'constructs';

/** The context entry the app's stack sets on itself; read through the construct tree, so any scope under it sees it. */
const BY_CONTEXT = 'storage-server:namesSettingsByContext';

/** Marks `stack`, the app's own, so that messages under it name context keys. Call before it has children. */
export function namesSettingsByContext(stack: IConstruct): void {
  stack.node.setContext(BY_CONTEXT, true);
}

/** A setting, by its prop (a path such as `fsxLustre.rootSquash`) and its context key. */
export interface Setting {
  readonly prop: string;
  readonly key: string;
}

/** How messages under one scope name settings. */
export class SettingNames {
  /** The names messages under `scope` use. */
  public static of(scope: IConstruct): SettingNames {
    return new SettingNames(scope.node.tryGetContext(BY_CONTEXT) === true);
  }

  private constructor(public readonly byContext: boolean) {}

  /** The setting's name: the context key in the app, the prop elsewhere. */
  public name(setting: Setting): string {
    return this.byContext ? setting.key : setting.prop;
  }

  /**
   * The setting set to a value, as the user writes it: `-c key=value` in the app, `prop: value` elsewhere.
   * `propValue` is the value as a library user writes it, where that differs (an enum member, a quoted string).
   */
  public set(setting: Setting, value: string, propValue: string = value): string {
    return this.byContext ? `-c ${setting.key}=${value}` : `${setting.prop}: ${propValue}`;
  }
}
