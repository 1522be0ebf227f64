/**
 * The Piscina worker entry of wallet sign-in (src/client-api/accounts/sessions/SignerRecovery.ts): the signer of an
 * EIP-191 message, recovered off the API's main thread.
 */
import { recoverMessageSigner } from "./SignerRecovery.ts"

export interface RecoverTask {
  readonly message: string
  readonly signature: string
}

export default ({ message, signature }: RecoverTask) => recoverMessageSigner(message, signature)
