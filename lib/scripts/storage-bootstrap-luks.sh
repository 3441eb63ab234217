# shellcheck shell=bash disable=SC2034 # FS_DEV: read by the other parts
# storage-bootstrap, the encryption of the array with STORAGE_ENCRYPTION=luks2: the LUKS2 header, and its key on the
# root volume, made with a fresh array and opened at every run; and the removal of the keys of arrays that are gone.
# Part of storage-bootstrap.sh, which reads it from beside itself. The server gets its text, less this opening comment,
# in place of the line that reads it: see lib/script-parts.ts.

# The keys of arrays that are gone: all the data disks are blank, so whatever a key opened is gone too.
retire_keys() {
  local k
  for k in "$KEY_DIR"/*.key "$KEY_DIR"/*.key.new; do
    [[ -f $k ]] || continue
    log "removing the key $k: the array it opened is gone with its disks"
    shred -u "$k" 2>/dev/null || rm -f "$k"
  done
}

# Sets FS_DEV, the device the XFS lives on: the LV, or its open dm-crypt mapping when the LV carries LUKS. It encrypts
# only an LV this run created, with STORAGE_ENCRYPTION=luks2; an existing array keeps its layout.
unlock() {
  local lv=/dev/$VG/$LV type label uuid key width offset
  FS_DEV=$lv
  type=$(blkid -p -s TYPE -o value "$lv" || true)
  if [[ -z $type ]] && ((CREATED)) && [[ $STORAGE_ENCRYPTION == luks2 ]]; then
    uuid=$(cat /proc/sys/kernel/random/uuid)
    key=$KEY_DIR/$uuid.key
    # The key is on the root volume before the header exists, so no header is ever left without its key.
    install -d -m 0700 "$KEY_DIR"
    (umask 077 && head -c 64 /dev/urandom >"$key.new") && chmod 0400 "$key.new" && mv "$key.new" "$key"
    # The data starts at a whole stripe width at or past LUKS2's 16 MiB header, so XFS's alignment holds.
    width=$((STORAGE_STRIPE_KIB * ${#DISKS[@]}))
    offset=$(((16384 + width - 1) / width * width * 2))
    log "encrypting $lv with LUKS2 (aes-xts-plain64, 512-bit key; the key is $key on the root volume)"
    # A key of 64 random bytes needs no key stretching: the fastest PBKDF LUKS2 allows.
    cryptsetup luksFormat --batch-mode --type luks2 --cipher aes-xts-plain64 --key-size 512 --sector-size 4096 \
      --pbkdf pbkdf2 --pbkdf-force-iterations 1000 --offset "$offset" --uuid "$uuid" --label "$LUKS_LABEL" \
      --key-file "$key" "$lv"
    type=crypto_LUKS
  fi
  if [[ $type != crypto_LUKS ]]; then
    [[ $STORAGE_ENCRYPTION == none || -z $type ]] ||
      log "WARNING: this array was made unencrypted; STORAGE_ENCRYPTION=luks2 applies to the next fresh array" \
        "(to encrypt this data now: copy it to another server, then empty these disks)"
    return 0
  fi
  label=$(blkid -p -s LABEL -o value "$lv" || true)
  [[ $label == "$LUKS_LABEL" ]] ||
    die "$lv holds LUKS (label '$label') that this bootstrap did not make: not opening it, nothing was written"
  uuid=$(cryptsetup luksUUID "$lv")
  key=$KEY_DIR/$uuid.key
  [[ -f $key ]] || die "$lv is encrypted (LUKS $uuid) and its key $key is not on this server's root volume:" \
    "cannot open it, nothing was written"
  if [[ ! -e /dev/mapper/$CRYPT ]]; then
    log "opening the encrypted array (LUKS $uuid) with its key $key"
    cryptsetup open --type luks2 --key-file "$key" "$lv" "$CRYPT" ||
      die "the key $key does not open $lv (LUKS $uuid): nothing was written"
  fi
  [[ $(readlink -f "$(cryptsetup status "$CRYPT" | sed -n 's/^ *device: *//p')") == "$(readlink -f "$lv")" ]] ||
    die "/dev/mapper/$CRYPT is open on another device than $lv: not using it"
  FS_DEV=/dev/mapper/$CRYPT
}
