import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { getAddress } from "viem"
import { Chain } from "../../platform/Chain.ts"
import { ExchangeApi } from "../ExchangeApi.ts"
import { ExchangeBadRequest } from "../ExchangeError.ts"
import { KNOWN_CHAINS } from "./RoutingSettings.ts"
import { timedQuote } from "../../platform/metrics/Metrics.ts"
import { Allowlist } from "./Allowlist.ts"
import { GasEstimator } from "./GasEstimator.ts"
import { QuoteFailure, toHttpError } from "./QuoteError.ts"
import { sendRetryAfter } from "../RpcUnavailable.ts"
import { getQuoteResponse, quoteSummary } from "./QuoteBody.ts"
import { type QuoteInput, type QuoteRejected, Quotes } from "./Quotes.ts"

const toHttp = (e: QuoteFailure | QuoteRejected) =>
  e instanceof QuoteFailure
    ? toHttpError(e)
    : new ExchangeBadRequest({
        error: e.message,
        code: e.code,
        ...(e.details === undefined ? {} : { details: e.details })
      })

/** Slippage fraction (POST) as an exact ratio over 10^6 (0.005 → 5000 / 1000000). */
const fraction = (x: number) => ({ numerator: BigInt(Math.round(x * 1_000_000)), denominator: 1_000_000n })

export const QuotesHttp = HttpApiBuilder.group(ExchangeApi, "quotes", (handlers) =>
  Effect.gen(function* () {
    const quotes = yield* Quotes
    const allowlist = yield* Allowlist
    const gas = yield* GasEstimator
    const chain = yield* Chain

    const partnerQuote = (payload: typeof import("./QuoteModels.ts").QuoteRequestBody.Type, applied: boolean) =>
      Effect.gen(function* () {
        const input: QuoteInput = {
          chainId: String(payload.chainId),
          tokenIn: payload.tokenInAddress,
          tokenOut: payload.tokenOutAddress,
          amount: payload.amount,
          type: payload.type ?? "exactIn",
          slippage: fraction(payload.slippage ?? 0.005),
          recipient: payload.recipient as `0x${string}`,
          routerType: payload.routerType ?? "swap-router-02",
          useRouterBalance: payload.useRouterBalance ?? false,
          deadline: payload.deadline === undefined ? undefined : BigInt(payload.deadline),
          allowlist: applied
        }
        const o = yield* quotes
          .quote(input)
          .pipe(timedQuote(applied ? "post" : "open"), Effect.mapError(toHttp), Effect.tapError(sendRetryAfter))
        const estimated =
          payload.sender === undefined
            ? undefined
            : yield* gas.estimate({ from: getAddress(payload.sender), ...o.methodParameters })
        return {
          ...quoteSummary(o),
          transaction: {
            to: o.methodParameters.to,
            callData: o.methodParameters.calldata,
            value: o.methodParameters.value,
            ...(estimated === undefined ? {} : { gas: estimated.toString() })
          },
          meta: { allowlistApplied: applied }
        }
      })

    return handlers
      .handle("getQuote", ({ query }) =>
        Effect.gen(function* () {
          const o = yield* quotes
            .quote({
              chainId: query.chainId,
              tokenIn: query.tokenInAddress,
              tokenOut: query.tokenOutAddress,
              amount: query.amount,
              type: query.type ?? "exactIn",
              slippage: { numerator: BigInt(query.slippageBps ?? "50"), denominator: 10_000n },
              recipient: query.recipient as `0x${string}`,
              routerType: query.routerType ?? "swap-router-02",
              useRouterBalance: query.useRouterBalance === "true",
              allowlist: false
            })
            .pipe(timedQuote("get"), Effect.mapError(toHttp), Effect.tapError(sendRetryAfter))
          return getQuoteResponse(o)
        })
      )
      .handle("createQuote", ({ payload }) => partnerQuote(payload, true))
      .handle("createOpenQuote", ({ payload }) => partnerQuote(payload, false))
      .handle("getQuoteTokens", ({ query }) =>
        Effect.gen(function* () {
          if (query.chainId !== chain.chainId) {
            return yield* toHttp(
              new QuoteFailure(
                KNOWN_CHAINS.has(query.chainId)
                  ? { reason: "CHAIN_NOT_CONFIGURED", message: `chain ${query.chainId} is not enabled on this server` }
                  : { reason: "CHAIN_NOT_SUPPORTED", message: `unrecognized chain id ${query.chainId}` }
              )
            )
          }
          const addresses = yield* allowlist.list(query.chainId)
          const known = yield* quotes.tokens(addresses)
          return {
            chainId: query.chainId,
            tokens: addresses.map((a) => ({
              address: a,
              symbol: known.get(a)?.symbol ?? null,
              decimals: known.get(a)?.decimals ?? null
            }))
          }
        })
      )
  })
)
