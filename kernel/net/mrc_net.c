// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Network glue: one UDP tunnel socket per network namespace, shared by the
 * MRC devices whose netdevs live there, and netdev event handling.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/wait.h>
#include <net/netns/generic.h>
#include <net/udp_tunnel.h>

#include "core/mrc_link_params.h"
#include "net/mrc_net.h"

/**
 * struct mrc_net - per-namespace MRC state
 * @lock: serialises socket creation and teardown
 * @sock: the UDP tunnel socket, NULL while no device uses this namespace
 * @port: UDP port @sock is bound to
 * @users: MRC devices holding a reference on @sock
 * @putting: mrc_net_put() calls under way. The namespace's exit waits for
 *	them too, since a put still runs after it dropped the last user; its
 *	final access is the decrement (wake_up_var() uses only the address).
 */
struct mrc_net {
	struct mutex lock; /* guards sock, port and users */
	struct socket *sock;
	u16 port;
	unsigned int users;
	atomic_t putting;
};

static unsigned int mrc_net_id __read_mostly;
static const struct mrc_net_handlers *mrc_net_up;

static struct socket *mrc_udp_sock_create(struct net *net, u16 port)
{
	struct udp_tunnel_sock_cfg tunnel_cfg = {
		.encap_type = 1,
		.encap_rcv = mrc_net_up->rx,
	};
	struct udp_port_cfg cfg = {
		.family = AF_INET6,
		.local_ip6 = IN6ADDR_ANY_INIT,
		.local_udp_port = htons(port),
		.ipv6_v6only = 0,
	};
	struct socket *sock;
	int err;

	err = udp_sock_create(net, &cfg, &sock);
	if (err == -EAFNOSUPPORT) {
		/* IPv6 disabled on this host: serve IPv4 only. */
		memset(&cfg, 0, sizeof(cfg));
		cfg.family = AF_INET;
		cfg.local_udp_port = htons(port);
		err = udp_sock_create(net, &cfg, &sock);
	}
	if (err)
		return ERR_PTR(err);

	setup_udp_tunnel_sock(net, sock, &tunnel_cfg);
	return sock;
}

struct mrc_net *mrc_net_get(struct net *net, u16 port)
{
	struct mrc_net *mn = net_generic(net, mrc_net_id);
	struct socket *sock;

	mutex_lock(&mn->lock);
	if (!mn->sock) {
		sock = mrc_udp_sock_create(net, port);
		if (IS_ERR(sock)) {
			mutex_unlock(&mn->lock);
			return ERR_CAST(sock);
		}
		mn->sock = sock;
		mn->port = port;
	} else if (mn->port != port) {
		/* One socket per namespace: all devices share its port. */
		mutex_unlock(&mn->lock);
		return ERR_PTR(-EADDRINUSE);
	}
	mn->users++;
	mutex_unlock(&mn->lock);
	return mn;
}

void mrc_net_put(struct mrc_net *mn)
{
	struct socket *sock = NULL;

	atomic_inc(&mn->putting);
	/*
	 * Counted before the last user goes, so a namespace exit that sees
	 * no user also sees this put (pairs with smp_rmb() in mrc_net_idle).
	 */
	smp_mb__after_atomic();
	mutex_lock(&mn->lock);
	if (!WARN_ON(mn->users == 0) && --mn->users == 0) {
		sock = mn->sock;
		mn->sock = NULL;
	}
	mutex_unlock(&mn->lock);

	if (sock)
		udp_tunnel_sock_release(sock);
	if (atomic_dec_and_test(&mn->putting))
		wake_up_var(&mn->putting);
}

struct socket *mrc_net_sock(struct mrc_net *mn)
{
	return mn->sock;
}

static int __net_init mrc_net_ns_init(struct net *net)
{
	struct mrc_net *mn = net_generic(net, mrc_net_id);

	mutex_init(&mn->lock);
	atomic_set(&mn->putting, 0);
	return 0;
}

/* No user left and no put still touching @mn. */
static bool mrc_net_idle(struct mrc_net *mn)
{
	if (READ_ONCE(mn->users))
		return false;
	/* Pairs with the increment that came before the users decrement. */
	smp_rmb();
	return !atomic_read(&mn->putting);
}

static void __net_exit mrc_net_ns_exit(struct net *net)
{
	struct mrc_net *mn = net_generic(net, mrc_net_id);

	/*
	 * Devices on this namespace's netdevs were queued for unregistration
	 * when those netdevs went away; wait until the last one has dropped
	 * its socket reference so nothing outlives the namespace.
	 */
	wait_var_event(&mn->putting, mrc_net_idle(mn));
	mutex_destroy(&mn->lock);
}

static struct pernet_operations mrc_net_ops = {
	.init = mrc_net_ns_init,
	.exit = mrc_net_ns_exit,
	.id = &mrc_net_id,
	.size = sizeof(struct mrc_net),
};

static int mrc_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	mrc_net_up->netdev_event(netdev_notifier_info_to_dev(ptr), event);
	return NOTIFY_DONE;
}

static struct notifier_block mrc_netdev_notifier = {
	.notifier_call = mrc_netdev_event,
};

/**
 * mrc_net_init() - register the pernet state and the netdev notifier
 * @handlers: the upper layers' handlers; must outlive mrc_net_exit()
 *
 * Return: 0 or a negative errno.
 */
int mrc_net_init(const struct mrc_net_handlers *handlers)
{
	int err;

	mrc_net_up = handlers;
	err = register_pernet_subsys(&mrc_net_ops);
	if (err)
		return err;

	err = register_netdevice_notifier(&mrc_netdev_notifier);
	if (err)
		unregister_pernet_subsys(&mrc_net_ops);
	return err;
}

/**
 * mrc_net_exit() - undo mrc_net_init(); all devices must be gone
 */
void mrc_net_exit(void)
{
	unregister_netdevice_notifier(&mrc_netdev_notifier);
	unregister_pernet_subsys(&mrc_net_ops);
}

/* The link state that makes an MRC port ACTIVE (core/mrc_link_params.c). */
bool mrc_net_port_active(const struct net_device *ndev)
{
	return mrc_port_state_from_netdev(netif_running(ndev),
					  netif_oper_up(ndev)) ==
	       MRC_PORT_ACTIVE;
}
