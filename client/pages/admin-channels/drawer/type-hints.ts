import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { ChannelType } from '../../../../shared/channel-types.ts';

/*
 * What the channel form says about each type's own fields: the key's format and where it comes from,
 * what `other` holds (shown as its own field only for types that use it), and the newer type to use
 * instead of a retired one. The relay reads these fields the same way (server/relay/providers/<type>/).
 */

export interface OtherField {
  label: MessageDescriptor;
  description: MessageDescriptor;
  placeholder: string;
  /** The provider cannot be reached without it. */
  required?: boolean;
}

export interface TypeHints {
  /** The key's format when it joins several credentials (shown as the placeholder). */
  keyFormat?: string;
  /** Where the key comes from, under the key field. */
  keyHelp?: MessageDescriptor;
  other?: OtherField;
  /** A retired API: the type to create instead. */
  successor?: number;
  /** The upstream's API lists no models: the form says so instead of offering a fetch. */
  noModelList?: boolean;
}

const T = ChannelType;

const HINTS: Partial<Record<number, TypeHints>> = {
  [T.Azure]: {
    other: {
      label: msg`API version`,
      description: msg`The api-version sent to Azure; empty uses the gateway's AZURE_DEFAULT_API_VERSION`,
      placeholder: '2024-10-21',
    },
  },
  [T.PaLM]: {
    keyHelp: msg`A Google AI Studio API key. Google has retired PaLM: Gemini channels take the same key.`,
    successor: T.Gemini,
  },
  [T.Baidu]: {
    keyFormat: 'APIKey|SecretKey',
    keyHelp: msg`The API Key and Secret Key of a Qianfan application, joined by |.`,
    successor: T.BaiduV2,
  },
  [T.Zhipu]: {
    keyFormat: 'id.secret',
    keyHelp: msg`A Zhipu API key as the console shows it: its id and secret joined by a dot.`,
    successor: T.ZhipuV4,
  },
  [T.Ali]: { keyHelp: msg`A DashScope API key (sk-…) from the Model Studio console.` },
  [T.XunfeiSpark]: {
    keyFormat: 'APPID|APISecret|APIKey',
    keyHelp: msg`The application's APPID, APISecret and APIKey from the Xunfei open platform, in this order.`,
    other: {
      label: msg`Spark API version`,
      description: msg`Used when the model name names no version (SparkDesk-v3.5 picks v3.5): v1.1, v2.1, v3.1, v3.5, v4.0, pro-128k or max-32k; empty means v2.1`,
      placeholder: 'v2.1',
    },
  },
  [T.AIProxyLibrary]: {
    keyHelp: msg`An AI Proxy API key.`,
    other: {
      label: msg`Knowledge base ID`,
      description: msg`The library the questions are asked of`,
      placeholder: 'lib-…',
      required: true,
    },
  },
  [T.FastGPT]: { keyFormat: 'APIKey-AppId' },
  [T.Tencent]: {
    keyFormat: 'AppId|SecretId|SecretKey',
    keyHelp: msg`Your Tencent Cloud account's AppId, then a CAM SecretId and SecretKey, joined by |.`,
    other: {
      label: msg`Region`,
      description: msg`The Tencent Cloud region sent as X-TC-Region; empty means ap-guangzhou`,
      placeholder: 'ap-guangzhou',
    },
  },
  [T.Bedrock]: { keyFormat: 'AccessKey|SecretAccessKey|Region' },
  [T.Dify]: { keyHelp: msg`The API key of one Dify app (app-…): each channel serves one app.` },
  [T.Cloudflare]: {
    keyHelp: msg`A Cloudflare API token with Workers AI permission.`,
    other: {
      label: msg`Account ID`,
      description: msg`The Cloudflare account whose Workers AI serves the requests`,
      placeholder: '0123456789abcdef0123456789abcdef',
      required: true,
    },
  },
  [T.VertexAI]: {
    keyHelp: msg`A service account's JSON key file (the whole file), or an express-mode API key (Gemini models only).`,
    other: {
      label: msg`Deployment region`,
      description: msg`A region such as us-central1, or JSON mapping models to regions with a "default"; empty means global`,
      placeholder: 'global',
    },
  },
  [T.Coze]: {
    keyHelp: msg`A Coze personal access token.`,
    other: {
      label: msg`Bot ID`,
      description: msg`The bot every model of this channel asks; empty: each model name is a bot ID`,
      placeholder: '7380000000000000000',
    },
  },
  // Video upstreams (issue 40).
  [T.Sora]: { keyHelp: msg`An OpenAI API key (sk-…) of a project with access to Sora.` },
  [T.Kling]: {
    keyFormat: 'AccessKey|SecretKey',
    keyHelp: msg`The AccessKey and SecretKey from Kling's developer console, joined by |: the gateway signs a short-lived JWT with them.`,
    noModelList: true,
  },
  [T.Jimeng]: {
    keyFormat: 'AccessKeyID|SecretAccessKey',
    keyHelp: msg`A Volcengine AccessKeyID and SecretAccessKey (IAM key with visual services access), joined by |.`,
    noModelList: true,
  },
  [T.Vidu]: { keyHelp: msg`A Vidu API key from the Vidu platform's API keys page.`, noModelList: true },
  [T.DoubaoVideo]: {
    keyHelp: msg`A Volcengine Ark API key (the same key Doubao chat channels take).`,
    noModelList: true,
  },
  // Image upstreams (issue 44).
  [T.Replicate]: {
    keyHelp: msg`A Replicate API token (r8_…) from replicate.com/account/api-tokens. Models are named owner/name, or owner/name:version.`,
    noModelList: true,
  },
};

export const typeHints = (type: number): TypeHints => HINTS[type] ?? {};
