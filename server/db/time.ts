/** Now in unix seconds: the unit of every time column (CONTRIBUTING) and of the APIs' `created` fields. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
