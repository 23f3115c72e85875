import { sellerPrincipalFor, type Principal } from '../../../domain/accounts/principal.js';
import type { SellerUser } from '../session.js';

/**
 * The seller acting in the console: the account's seller with every scope and no warehouse narrowing, as
 * the operator's seller actions are, so a page is refused exactly where a seller token would be (a
 * warehouse an integration controls, say). A console session holds no access token: tokenId -1 keeps it
 * apart from the operator's 0, so what the domain records of the actor (a receipt's received_by) says
 * "seller", not "operator".
 */
export function consolePrincipal(user: SellerUser): Principal {
  return { ...sellerPrincipalFor(user.accountId), tokenId: -1 };
}
