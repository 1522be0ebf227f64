import { Config, Option } from "effect"

/**
 * FIRE_ENV: `production` or `development`. Without it, a process on the embedded devnet (no RPC_URL) is in
 * development and one on a real chain (RPC_URL set) is in production: an operator who points the app at a chain
 * gets the safe defaults without having to know the switch exists. Production refuses to start with unsafe
 * settings (src/system/ProductionChecks.ts) and makes sign-in messages carry every binding line (SiwePolicy.ts).
 */
export type FireEnv = "production" | "development"

export const fireEnvOf = (env: Option.Option<FireEnv>, rpcUrl: Option.Option<string>): FireEnv =>
  Option.getOrElse(env, () => (Option.isSome(rpcUrl) ? "production" : "development"))

export const fireEnvConfig: Config.Config<FireEnv> = Config.all({
  env: Config.option(Config.Literals(["production", "development"], "FIRE_ENV")),
  rpcUrl: Config.option(Config.String("RPC_URL"))
}).pipe(Config.map(({ env, rpcUrl }) => fireEnvOf(env, rpcUrl)))
