import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';

/*
 * The browser half of a passkey ceremony for the console (sign-in page, Me › Security): the server's
 * begin call answers the WebAuthn options JSON, @simplewebauthn/browser runs navigator.credentials.* with
 * it and answers the credential JSON the finish call takes.
 */

/*
 * The server's options come typed by @simplewebauthn/server, whose JSON types differ from the browser
 * package's in details the browser does not read (hint and transport names as plain strings).
 */

/** navigator.credentials.create with the register-begin answer; resolves to what register-finish takes. */
export const createPasskey = (options: object) =>
  startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON });

/** navigator.credentials.get with a login- or verify-begin answer; resolves to what the finish call takes. */
export const getPasskey = (options: object) =>
  startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON });

/** Whether this browser can use passkeys at all (WebAuthn also needs https or localhost). */
export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

/** The person closed the browser's passkey prompt, or it timed out: not an error worth a red toast. */
export function isPasskeyCancel(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return err.name === 'NotAllowedError' || err.name === 'AbortError';
}
