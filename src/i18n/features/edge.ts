import { type TextTree } from '../textTree';

/** Roost Edge in the console: the enrolment code of a house's gateway. Chinese must match. */
export const edgeEn = {
  enrol: {
    action: 'Enrolment code for Roost Edge',
    title: 'Enrolment code for {{networkId}}',
    once: 'Shown only now. It works once, until {{expires}}.',
    typeThis: 'On the Roost Edge box, in the Roost folder, type:',
    newToken:
      'Enrolling gives the gateway a new device token: a device still using the old one is signed out.',
  },
};

export const edgeZh: TextTree<typeof edgeEn> = {
  enrol: {
    action: 'Roost Edge 注册码',
    title: '{{networkId}} 的注册码',
    once: '仅显示这一次。只能使用一次，有效期至 {{expires}}。',
    typeThis: '在 Roost Edge 主机的 Roost 目录中输入：',
    newToken: '注册后网关将获得新的设备令牌：仍使用旧令牌的设备将无法连接。',
  },
};
