/**
 * The e-mail address the alarm topic may subscribe, `alarmEmail`: a practical grammar built from RFC 5322's and RFC
 * 1035's pieces, and its rule in words.
 */

/**
 * The characters of a local part, `atext` of RFC 5322 3.2.3, which the alarm address uses in dot-atom form: runs of
 * them joined by single dots, no dot first or last. Quoted local parts of RFC 5322 3.2.4 are refused: practical
 * addresses do not use them, and they would let spaces and commas in.
 */
export const EMAIL_ATEXT = "A-Za-z0-9!#$%&'*+/=?^_`{|}~-";

/**
 * One label of a host name by RFC 1035 2.3.1, which RFC 1123 2.1 relaxes to allow a leading digit: 1-63 letters, digits
 * and hyphens, not starting or ending with a hyphen.
 */
export const DNS_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';

/** Longest local part of an e-mail address, by RFC 5321 4.5.3.1.1. */
export const EMAIL_MAX_LOCAL = 64;
/** Longest e-mail address: RFC 5321 4.5.3.1.3 allows a 256-octet path, less its `<` and `>`. */
export const EMAIL_MAX_LENGTH = 254;

/**
 * An e-mail address the alarm topic may subscribe, `alarmEmail`, by a sound practical grammar: a dot-atom local part of
 * {@link EMAIL_ATEXT}, at most {@link EMAIL_MAX_LOCAL}; `@`; and a domain of two or more {@link DNS_LABEL}s whose last
 * label, the top-level domain, is not all digits, per RFC 3696 2. At most {@link EMAIL_MAX_LENGTH} in all. It refuses
 * `a@.b.c`, with an empty label, `a@-b.c`, with a label starting with a hyphen, lists and spaces. It is built from the
 * pieces above, which are the one definition.
 */
export const EMAIL_PATTERN = new RegExp(
  `^(?=[^@]{1,${EMAIL_MAX_LOCAL}}@)(?=.{1,${EMAIL_MAX_LENGTH}}$)` +
    `[${EMAIL_ATEXT}]+(?:\\.[${EMAIL_ATEXT}]+)*@(?:${DNS_LABEL}\\.)+(?=[A-Za-z0-9-]*[A-Za-z])${DNS_LABEL}$`,
);

/** What {@link EMAIL_PATTERN} allows, in words, for messages. */
export const EMAIL_RULE = 'one e-mail address such as ops@example.com: a local part of letters, digits and ' +
  "!#$%&'*+/=?^_`{|}~- in runs joined by single dots (at most 64 characters), @, and a domain of two or more labels of " +
  'letters, digits and inner hyphens (no empty label, no hyphen first or last), the last not all digits; at most ' +
  '254 characters';
