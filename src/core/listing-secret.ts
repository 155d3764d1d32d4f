// What a list's secret may be, pasted into /setup listing's form or set as LISTING_<SITE>_SECRET:
// long enough not to be guessed, short enough to refuse junk, and one word of printable ASCII, as
// each site takes it in a header or an address.

export const LISTING_SECRET_MIN = 16;
export const LISTING_SECRET_MAX = 256;

const PATTERN = new RegExp(`^[\\x21-\\x7e]{${LISTING_SECRET_MIN},${LISTING_SECRET_MAX}}$`);

export const isListingSecret = (text: string): boolean => PATTERN.test(text);

/** A list's API token (Top.gg's project token, a JWT of a few hundred characters): one word, as a header takes it. */
export const API_TOKEN_MAX = 2048;
const API_TOKEN = new RegExp(`^[\\x21-\\x7e]{${LISTING_SECRET_MIN},${API_TOKEN_MAX}}$`);

export const isApiToken = (text: string): boolean => API_TOKEN.test(text);
