// What a list's secret may be, pasted into /setup listing's form or set as LISTING_<SITE>_SECRET:
// long enough not to be guessed, short enough to refuse junk, and one word of printable ASCII, as
// each site takes it in a header or an address.

export const LISTING_SECRET_MIN = 16;
export const LISTING_SECRET_MAX = 256;

const PATTERN = new RegExp(`^[\\x21-\\x7e]{${LISTING_SECRET_MIN},${LISTING_SECRET_MAX}}$`);

export const isListingSecret = (text: string): boolean => PATTERN.test(text);
