import { Config, Effect, Option } from "effect"
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
}

const loopbackHost = /^(?:127\.\d+\.\d+\.\d+|::1|localhost)$/iu

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
  if (!s.metricsTokenSet && !loopbackHost.test(s.host)) {
    problems.push(`METRICS_TOKEN is unset while HOST=${s.host} is not loopback (/metrics would be public)`)
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
    host: Config.String("HOST").pipe(Config.withDefault("0.0.0.0"))
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
