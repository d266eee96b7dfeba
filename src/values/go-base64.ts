/**
 * Go's base64.StdEncoding.DecodeString, as the service applies it to some texts it is sent (an
 * ACL policy: vault/logical_system.go handlePoliciesSet decodes `policy` when it decodes, and
 * stores what it decodes to). It skips `\r` and `\n`, wants padding, and is not strict about
 * the bits the padding leaves over.
 */
const STD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** True when the service would take `text` for base64 (and store the bytes it decodes to instead). */
export function decodesAsGoBase64(text: string): boolean {
  return STD_BASE64.test(text.replace(/[\r\n]/g, ''));
}
