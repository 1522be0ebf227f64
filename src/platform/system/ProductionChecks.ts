import { Config, Effect, Option } from "effect"
import { BlockList, isIP } from "node:net"
import type { ServiceName } from "../AppConfig.ts"
import { type FireEnv, fireEnvConfig } from "./FireEnv.ts"

/** The settings production mode looks at, as read from the environment (README.md, "Configuration"). */
export interface ProductionInputs {
  readonly services: ReadonlyArray<ServiceName>
  readonly siweDomains: string
  readonly quoteApiKeys: string
  readonly quoteOpen: Option.Option<boolean>
  readonly cookieSecure: boolean
  readonly pushAllowPrivateHosts: boolean
  readonly jwtSecretSet: boolean
  readonly corsOrigins: string
  readonly metricsTokenSet: boolean
  readonly host: string
  /** METRICS_PORT is set: `/metrics` is served only on METRICS_HOST (src/platform/metrics/MetricsListener.ts). */
  readonly metricsOwnListener: boolean
  readonly metricsHost: string
}

const loopbackHost = /^(?:127\.\d+\.\d+\.\d+|::1|localhost)$/iu

/**
 * Addresses of a monitoring network: loopback and the private ranges (RFC 1918, IPv6 unique local fc00::/7). A
 * metrics listener bound there is not reached from the internet; a service port is (through the proxy), so for HOST
 * only loopback counts.
 */
const privateRanges = new BlockList()
privateRanges.addSubnet("10.0.0.0", 8, "ipv4")
privateRanges.addSubnet("172.16.0.0", 12, "ipv4")
privateRanges.addSubnet("192.168.0.0", 16, "ipv4")
privateRanges.addSubnet("fc00::", 7, "ipv6")
const privateAddress = (host: string) => {
  const family = isIP(host)
  return loopbackHost.test(host) || (family !== 0 && privateRanges.check(host, family === 4 ? "ipv4" : "ipv6"))
}

/**
 * What production mode refuses, one entry per unsafe setting: its name and why. Settings of a service the process
 * does not run are not looked at (an exchange-only process needs no SIWE_DOMAINS). Pure: tested directly.
 */
export const unsafeProductionSettings = (s: ProductionInputs): ReadonlyArray<string> => {
  const client = s.services.includes("client")
  const exchange = s.services.includes("exchange")
  const problems: Array<string> = []
  if (client && s.siweDomains.trim() === "") {
    problems.push(
      "SIWE_DOMAINS is unset (sign-in messages made for any site, a phishing page's included, would be accepted)"
    )
  }
  if (exchange && s.quoteApiKeys.trim() === "" && Option.isNone(s.quoteOpen)) {
    problems.push(
      "QUOTE_API_KEYS is empty and QUOTE_OPEN is not set (set keys, or QUOTE_OPEN=false to serve only admin-created keys, or QUOTE_OPEN=true to open the quote routes per IP)"
    )
  }
  if (client && !s.cookieSecure) problems.push("COOKIE_SECURE=false (the session cookie would travel over plain http)")
  if (client && s.pushAllowPrivateHosts) {
    problems.push("PUSH_ALLOW_PRIVATE_HOSTS=true (web push could reach private and loopback addresses: SSRF)")
  }
  if (client && !s.jwtSecretSet) {
    problems.push(
      "JWT_SECRET is unset (a generated key kept in the database: anyone who reads app_settings can mint sessions, and it cannot be rotated)"
    )
  }
  if (s.corsOrigins.split(",").some((o) => o.trim() === "*")) {
    problems.push("CORS_ORIGINS has * (list the front-end origins; the public routes answer any origin without it)")
  }
  if (!s.metricsTokenSet && s.metricsOwnListener && !privateAddress(s.metricsHost)) {
    problems.push(
      `METRICS_TOKEN is unset while METRICS_HOST=${s.metricsHost} is not a loopback or private address (/metrics would be public)`
    )
  }
  if (!s.metricsTokenSet && !s.metricsOwnListener && !loopbackHost.test(s.host)) {
    problems.push(
      `METRICS_TOKEN is unset while HOST=${s.host} is not loopback (/metrics would be public on every service port: set METRICS_PORT to serve it on a private METRICS_HOST, or METRICS_TOKEN)`
    )
  }
  return problems
}

export const productionInputsConfig = (services: ReadonlyArray<ServiceName>): Config.Config<ProductionInputs> =>
  Config.all({
    siweDomains: Config.String("SIWE_DOMAINS").pipe(Config.withDefault("")),
    quoteApiKeys: Config.String("QUOTE_API_KEYS").pipe(Config.withDefault("")),
    quoteOpen: Config.option(Config.Boolean("QUOTE_OPEN")),
    cookieSecure: Config.Boolean("COOKIE_SECURE").pipe(Config.withDefault(true)),
    pushAllowPrivateHosts: Config.Boolean("PUSH_ALLOW_PRIVATE_HOSTS").pipe(Config.withDefault(false)),
    jwtSecretSet: Config.option(Config.Redacted("JWT_SECRET")).pipe(Config.map(Option.isSome)),
    corsOrigins: Config.String("CORS_ORIGINS").pipe(Config.withDefault("")),
    metricsTokenSet: Config.option(Config.Redacted("METRICS_TOKEN")).pipe(Config.map(Option.isSome)),
    host: Config.String("HOST").pipe(Config.withDefault("0.0.0.0")),
    metricsOwnListener: Config.option(Config.Int("METRICS_PORT")).pipe(Config.map(Option.isSome)),
    metricsHost: Config.String("METRICS_HOST").pipe(Config.withDefault("127.0.0.1"))
  }).pipe(Config.map((inputs) => ({ ...inputs, services })))

export class UnsafeProductionSettings extends Error {
  readonly problems: ReadonlyArray<string>
  constructor(problems: ReadonlyArray<string>) {
    super(
      `production mode (FIRE_ENV=production; the default with RPC_URL) refuses to start: ${problems.join("; ")}. ` +
        "Fix these, or set FIRE_ENV=development for a non-production deployment."
    )
    this.problems = problems
  }
}

/**
 * Production mode (FIRE_ENV, src/platform/system/FireEnv.ts): before anything starts, refuse unsafe settings,
 * naming each in the one start-up failure line. Development checks nothing.
 */
export const checkProductionSettings = (
  services: ReadonlyArray<ServiceName>
): Effect.Effect<FireEnv, UnsafeProductionSettings | Config.ConfigError> =>
  Effect.gen(function* () {
    const env = yield* fireEnvConfig
    if (env === "development") return env
    const problems = unsafeProductionSettings(yield* productionInputsConfig(services))
    if (problems.length > 0) return yield* Effect.fail(new UnsafeProductionSettings(problems))
    return env
  })
