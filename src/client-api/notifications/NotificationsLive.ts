import { Effect, Layer } from "effect"
import { Chain } from "../../platform/Chain.ts"
import { PushConfig } from "./push/PushConfig.ts"
import { PushHttp } from "./push/PushHttp.ts"
import { PushSender } from "./push/PushSender.ts"
import { PushSubscriptions } from "./push/PushSubscriptions.ts"
import { PushWorker } from "./push/PushWorker.ts"
import { VapidKeys } from "./push/VapidKeys.ts"
import { ChainNotifier } from "./ChainNotifier.ts"
import { Notifications } from "./Notifications.ts"
import { NotificationsHttp } from "./NotificationsHttp.ts"

/** Notifications and web push: the service other features call (`Notifications.notify`) and the push worker fiber. */
export const NotificationServicesLive = Layer.mergeAll(
  Notifications.layer,
  PushWorker.layer,
  PushSubscriptions.layer
).pipe(Layer.provideMerge(PushSender.layer), Layer.provideMerge(VapidKeys.layer), Layer.provideMerge(PushConfig.layer))

/** The routes (/v1/notifications, /v1/push) and the chain notifier of the process's chain, over the services. */
export const NotificationsHttpLive = Layer.unwrap(
  Effect.map(Chain, (chain) =>
    Layer.mergeAll(NotificationsHttp, PushHttp, ChainNotifier.layer(chain.chainId)).pipe(
      Layer.provideMerge(NotificationServicesLive)
    )
  )
)
