/** What Discord said to the application's own id and secret: the secret's verdict, or why there is none. */
export type SecretAnswer =
  | { kind: 'accepted' }
  | { kind: 'refused'; status: number; error: string | undefined }
  | { kind: 'unexpected'; status: number; error: string | undefined }
  | { kind: 'unreachable'; cause: string };

/**
 * Asks for a token with OAuth2's client credentials grant (Discord gives one to the application's
 * owner for `identify`, team applications too): 200 for the right id and secret, 401 invalid_client
 * for a wrong one. Nothing is changed at Discord and the token is dropped unread, never printed.
 */
export async function askWithClientSecret(
  tokenUrl: string,
  clientId: string,
  clientSecret: string,
): Promise<SecretAnswer> {
  // Encoded as the sign-in's token exchange sends them (RFC 6749 §2.3.1); Discord's ids and secrets are unchanged by it.
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64');
  let response: Response;
  try {
    response = await fetch(tokenUrl, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'identify' }).toString(),
      signal: AbortSignal.timeout(10_000),
      redirect: 'manual',
    });
  } catch (error) {
    const e = error as { cause?: { code?: string; message?: string }; name?: string; message?: string };
    const cause = e.cause?.code ?? (e.name === 'TimeoutError' ? 'no answer in 10 s' : (e.cause?.message ?? e.message));
    return { kind: 'unreachable', cause: cause ?? 'no answer' };
  }
  const text = await response.text().catch(() => '');
  if (response.status === 200) return { kind: 'accepted' };
  const error = errorCode(text);
  if (response.status === 401 || error === 'invalid_client') return { kind: 'refused', status: response.status, error };
  return { kind: 'unexpected', status: response.status, error };
}

/** OAuth2's `error` field when it is one of its short codes; any other text from the answer is never repeated. */
function errorCode(text: string): string | undefined {
  try {
    const error = (JSON.parse(text) as { error?: unknown }).error;
    return typeof error === 'string' && /^[a-z_]{1,40}$/.test(error) ? error : undefined;
  } catch {
    return undefined;
  }
}
