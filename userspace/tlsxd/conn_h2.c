// SPDX-License-Identifier: GPL-2.0
/*
 * conn_h2.c - an HTTP/2 connection (ALPN "h2") on the worker's ring:
 * the glue between h2/h2_conn.c (no I/O) and the connection's life
 * (docs/http2.md).  Bytes in: tlsx_read() straight into the h2
 * connection's input, on every layer.  Bytes out: each item h2_conn_next()
 * gives (control frames, a HEADERS block, a DATA frame's 9-octet header
 * and a range of the file) becomes a response plan's pieces in the
 * connection's request buffer and goes by the record layer's send
 * (conn_send_plan(), conn.c): sendfile or splice on the kernel layers,
 * tlsx_sendfile() on the userspace one, as HTTP/1.1 bodies go.
 *
 *   pump     read what the socket has (without waiting), then send the
 *            next item; an item that completes at once is followed by
 *            the next, one that waits comes back by conn_h2_sent();
 *            with nothing to send, wait on POLLIN;
 *   timers   the header timeout until the first stream, idle while no
 *            stream is open, the send timeout while streams have bytes
 *            due and nothing moves (a zero window included);
 *   end      a connection error or a GOAWAY whose streams finished:
 *            close_notify and close, lingering as HTTP/1.1 does.
 */
#include <stdlib.h>
#include <string.h>

#include "conn_priv.h"
#include "h2/h2_conn.h"

struct conn_h2 {
	struct h2_conn h;
	struct h2_conf conf;
	struct loop *lp;
	struct conn *c;
	bool in_pump;		/* conn_h2_pump() is on the stack */
	bool item_sent;		/* the item went while in_pump */
	uint64_t stall_since;	/* ms: streams have bytes due, none moved */
	bool any_stream;
	/*
	 * A turn the socket did not take whole (userspace layers): its
	 * pieces from rest_i on, the arena bytes they point to copied
	 * behind them (one allocation, freed when the turn went).
	 */
	struct tlsx_piece *rest;
	unsigned int rest_n, rest_i;
};

/*
 * A turn on the userspace layer (docs/http2.md, "Turns"): up to
 * about 1 MiB of frames (SEND_BUDGET, an HTTP/1.1 body's turn) in one
 * tlsx_sendv(), whose pieces and frame headers are the worker's; a
 * connection keeps a copy only of a turn the socket did not take.
 */
#define H2_TURN_PIECES	256
#define H2_TURN_ARENA	(64 * 1024)
/* Turns one pump sends before the other connections' turn. */
#define H2_TURNS_PER_PUMP	2

/*
 * Streams kept for reuse by the worker: a turn ends up to 100 of a
 * connection's streams at once, and freeing them gave the heap's top
 * back to the kernel only to fault it in again for the next requests
 * (measured: most of the CPU of 1 KiB x 100 streams, docs/perf-http.md).
 */
#define H2_STREAM_POOL	256

struct h2_turn_buf {
	struct h2_piece hp[H2_TURN_PIECES];
	struct tlsx_piece tp[H2_TURN_PIECES];
	uint8_t arena[H2_TURN_ARENA];
	void *pool[H2_STREAM_POOL];
	unsigned int npool;
};

/* The worker's turn buffers, made at first use; NULL without memory. */
static struct h2_turn_buf *worker_buf(struct loop *lp)
{
	if (!lp->h2_turn) {
		lp->h2_turn = malloc(sizeof(*lp->h2_turn));
		if (lp->h2_turn)
			lp->h2_turn->npool = 0;
	}
	return lp->h2_turn;
}

void conn_h2_worker_free(struct loop *lp)
{
	struct h2_turn_buf *b = lp->h2_turn;

	if (!b)
		return;
	while (b->npool)
		free(b->pool[--b->npool]);
	free(b);
	lp->h2_turn = NULL;
}

/* What the access log keeps of a stream's request (h2_conn drops it). */
struct h2_logreq {
	struct http_req req;
	char buf[];
};

static struct http_str keep_str(char **p, struct http_str s)
{
	struct http_str out = { NULL, 0 };

	if (!s.p)
		return out;
	memcpy(*p, s.p, s.len);
	out.p = *p;
	out.len = s.len;
	*p += s.len;
	return out;
}

static struct h2_logreq *logreq_make(const struct http_req *r)
{
	size_t n = r->method_str.len + r->target.len + r->referer.len +
		   r->user_agent.len;
	struct h2_logreq *l = malloc(sizeof(*l) + n);
	char *p;

	if (!l)
		return NULL;
	memset(&l->req, 0, sizeof(l->req));
	p = l->buf;
	l->req.method_str = keep_str(&p, r->method_str);
	l->req.target = keep_str(&p, r->target);
	l->req.referer = keep_str(&p, r->referer);
	l->req.user_agent = keep_str(&p, r->user_agent);
	l->req.http2 = true;
	return l;
}

/* h2_conn_ops.plan: the one response plan (resp.c) for both protocols. */
static void h2_plan(void *owner, struct h2_stream *s, int status)
{
	struct conn_h2 *g = owner;
	struct loop *lp = g->lp;
	unsigned int i;

	g->any_stream = true;
	if (status) {
		resp_error(&lp->srv->site, status, lp->now, 0,
			   s->req.method == HTTP_M_HEAD, s->rbuf,
			   sizeof(s->rbuf), &s->resp);
	} else {
		resp_plan(&lp->srv->site, &s->req, lp->now, 0, s->rbuf,
			  sizeof(s->rbuf), &s->resp);
	}
	s->owner = lp->alog ? logreq_make(&s->req) : NULL;
	for (i = 0; i < s->resp.nseg; i++)
		if (!s->resp.seg[i].mem && s->resp.seg[i].len) {
			stats_add(lp->st, conn_ops(g->c)->body_stat(lp), 1);
			break;
		}
}

/* h2_conn_ops.done: the access log line and counters, the file back. */
static void h2_done(void *owner, struct h2_stream *s, bool complete)
{
	struct conn_h2 *g = owner;
	struct loop *lp = g->lp;
	struct h2_logreq *l = s->owner;

	(void)complete;
	stats_add(lp->st, STAT_REQUESTS, 1);
	stats_add(lp->st, stats_status_id(s->resp.status), 1);
	stats_add(lp->st, STAT_BYTES_BODY, s->body_sent);
	if (lp->alog)
		access_log_add(lp->alog, &g->c->peer.sa, l ? &l->req : NULL,
			       s->resp.status, s->body_sent, lp->now);
	free(l);
	s->owner = NULL;
	resp_release(&s->resp);
}

static void *h2_stream_get(void *owner)
{
	struct conn_h2 *g = owner;
	struct h2_turn_buf *b = worker_buf(g->lp);

	if (b && b->npool)
		return b->pool[--b->npool];
	return malloc(sizeof(struct h2_stream));
}

static void h2_stream_put(void *owner, void *p)
{
	struct conn_h2 *g = owner;
	struct h2_turn_buf *b = g->lp->h2_turn;

	if (b && b->npool < H2_STREAM_POOL) {
		b->pool[b->npool++] = p;
		return;
	}
	free(p);
}

static const struct h2_conn_ops h2_ops = {
	h2_plan, h2_done, h2_stream_get, h2_stream_put,
};

bool conn_h2_start(struct loop *lp, struct conn *c)
{
	struct conn_h2 *g = calloc(1, sizeof(*g));

	if (!g)
		return false;
	h2_conf_default(&g->conf);
	g->conf.streams_total_max = lp->conf->keepalive_requests;
	g->conf.http = lp->conf->http;
	g->conf.http.body_max = 0;
	g->lp = lp;
	g->c = c;
	if (h2_conn_init(&g->h, &g->conf, &h2_ops, g)) {
		free(g);
		return false;
	}
	c->h2 = g;
	return true;
}

void conn_h2_free(struct conn *c)
{
	struct conn_h2 *g = c->h2;

	if (!g)
		return;
	/* The plan pieces pointed into the h2 connection: not ours. */
	if (c->a) {
		c->a->resp.fd = -1;
		c->a->resp.nseg = 0;
	}
	h2_conn_free(&g->h);
	free(g->rest);
	free(g);
	c->h2 = NULL;
}

/*
 * Reads what the socket (or libtlsx) has, without waiting.  Returns 1
 * to go on, 0 when @c waits for something (an op is in flight), -1 when
 * @c was closed.
 */
static int h2_read(struct loop *lp, struct conn *c)
{
	struct conn_h2 *g = c->h2;

	for (;;) {
		size_t room;
		uint8_t *p = h2_conn_in_space(&g->h, &room);
		ssize_t n = tlsx_read(c->tls, p, room);

		if (n > 0) {
			/* A connection error leaves its GOAWAY to send. */
			if (h2_conn_in_commit(&g->h, n, lp->now_ms))
				return 1;
			continue;
		}
		if (n == TLSX_WANT_READ)
			return 1;
		if (n == TLSX_WANT_WRITE) {
			/* A KeyUpdate reply owed: paid before reading on. */
			int r = tlsx_conn_flush(c->tls);

			if (!r)
				continue;
			if (r == TLSX_WANT_WRITE) {
				stats_add(lp->st, STAT_TLS_OWED_WAIT, 1);
				conn_poll(lp, c, true);
				return 0;
			}
			conn_tls_failed(lp, c, r);
			return -1;
		}
		/* 0: close_notify; else a reset, EOF or an alert. */
		if (!n)
			conn_close(lp, c, true);
		else
			conn_tls_failed(lp, c, n);
		return -1;
	}
}

/* The next item as a plan in c->a; false when nothing can go now. */
static bool h2_item_plan(struct conn *c)
{
	struct conn_h2 *g = c->h2;
	struct active *a = c->a;
	struct h2_item it;

	if (!h2_conn_next(&g->h, &it))
		return false;
	/* Only a stream's bytes are progress: a PING's ACK is not. */
	if (it.progress)
		g->stall_since = 0;
	a->resp.head = (const char *)it.mem;
	a->resp.head_len = it.mem_len;
	a->resp.nseg = 0;
	a->resp.fd = -1;
	a->resp.body_len = 0;
	if (it.flen) {
		a->resp.fd = it.fd;
		a->resp.seg[0].mem = NULL;
		a->resp.seg[0].off = it.foff;
		a->resp.seg[0].len = it.flen;
		a->resp.nseg = 1;
		a->resp.body_len = it.flen;
	}
	/* Each stream logs itself (h2_done()), not the connection. */
	a->logged = true;
	a->parsed = false;
	return true;
}

/*
 * Nothing to send: wait for input, under the timer the state says.
 * Streams with bytes due and every window shut: the send timeout, from
 * when they last moved; frames that open no window (PING, SETTINGS)
 * move its timer but not that time, which closes @c once it is past.
 */
static void h2_wait(struct loop *lp, struct conn *c)
{
	struct conn_h2 *g = c->h2;

	c->state = CS_IDLE;
	if (h2_conn_busy(&g->h)) {
		if (!g->stall_since) {
			g->stall_since = lp->now_ms ? lp->now_ms : 1;
		} else if (lp->now_ms - g->stall_since >=
			   lp->conf->send_timeout_ms) {
			stats_add(lp->st, STAT_TO_SEND, 1);
			conn_close(lp, c, false);
			return;
		}
		timer_arm(&lp->timers, &c->timer, TIMER_SEND, lp->now_ms);
	} else {
		g->stall_since = 0;
		timer_arm(&lp->timers, &c->timer,
			  g->any_stream ? TIMER_IDLE : TIMER_HEADER,
			  lp->now_ms);
	}
	conn_poll(lp, c, false);
}

/* The first @n octets of @p[*@i..@np) went: *@i moves past them. */
static void pieces_skip(struct tlsx_piece *p, unsigned int np,
			unsigned int *i, size_t n)
{
	while (*i < np && n >= p[*i].len) {
		n -= p[*i].len;
		(*i)++;
	}
	if (*i < np && n) {
		if (p[*i].mem)
			p[*i].mem = (const uint8_t *)p[*i].mem + n;
		else
			p[*i].off += n;
		p[*i].len -= n;
	}
}

/*
 * Keeps what is left of a turn (@p[@i..@np)) when the socket is full:
 * the pieces and the @arena bytes they point to, in one allocation.
 */
static bool turn_keep(struct conn_h2 *g, const struct tlsx_piece *p,
		      unsigned int i, unsigned int np, const uint8_t *arena,
		      size_t arena_len)
{
	size_t psz = (np - i) * sizeof(*p);
	struct tlsx_piece *r = malloc(psz + arena_len);
	uint8_t *copy = (uint8_t *)r + psz;
	unsigned int k;

	if (!r)
		return false;
	memcpy(copy, arena, arena_len);
	for (k = 0; k < np - i; k++) {
		const uint8_t *m = p[i + k].mem;

		r[k] = p[i + k];
		if (m && m >= arena && m < arena + arena_len)
			r[k].mem = copy + (m - arena);
	}
	g->rest = r;
	g->rest_n = np - i;
	g->rest_i = 0;
	return true;
}

/*
 * Sends a turn's pieces from *@i on: 1 when all went, 0 when @c waits
 * for POLLOUT (what is left kept: g->rest), -1 when @c was closed.
 */
static int turn_push(struct loop *lp, struct conn *c, struct tlsx_piece *p,
		     unsigned int np, unsigned int *i, const uint8_t *arena,
		     size_t arena_len)
{
	struct conn_h2 *g = c->h2;

	for (;;) {
		ssize_t n;

		while (*i < np && !p[*i].len)
			(*i)++;
		if (*i == np)
			return 1;
		n = tlsx_sendv(c->tls, p + *i, np - *i);
		if (n > 0) {
			pieces_skip(p, np, i, n);
			timer_arm(&lp->timers, &c->timer, TIMER_SEND,
				  lp->now_ms);
			continue;
		}
		if (n == TLSX_WANT_WRITE) {
			if (!g->rest &&
			    !turn_keep(g, p, *i, np, arena, arena_len)) {
				conn_close(lp, c, false);
				return -1;
			}
			c->state = CS_IDLE;
			timer_arm(&lp->timers, &c->timer, TIMER_SEND,
				  lp->now_ms);
			conn_poll(lp, c, true);
			return 0;
		}
		/* 0: a file ended before its range (it shrank under us). */
		if (!n)
			conn_close(lp, c, false);
		else
			conn_tls_failed(lp, c, n);
		return -1;
	}
}

/* The kept rest of a turn: 1 when it went (the turn is done), else 0/-1. */
static int turn_rest(struct loop *lp, struct conn *c)
{
	struct conn_h2 *g = c->h2;
	int r = turn_push(lp, c, g->rest, g->rest_n, &g->rest_i, NULL, 0);

	if (r <= 0)
		return r;
	free(g->rest);
	g->rest = NULL;
	h2_conn_item_done(&g->h);
	return 1;
}

/*
 * The pump on the userspace layer (h2_turns): read, then a
 * turn of many frames by one tlsx_sendv(), as long as frames are due;
 * then what libtlsx holds sealed is pushed and @c waits for input.
 */
static void h2_pump_turns(struct loop *lp, struct conn *c)
{
	struct conn_h2 *g = c->h2;
	unsigned int turns = 0, k, i;
	int r;

	if (g->rest && turn_rest(lp, c) <= 0)
		return;
	for (;;) {
		struct h2_turn_buf *b;
		struct h2_turn t;

		r = h2_read(lp, c);
		if (r <= 0)
			return;
		if (h2_conn_over(&g->h)) {
			conn_close(lp, c, true);
			return;
		}
		b = worker_buf(lp);
		if (!b) {
			conn_close(lp, c, false);
			return;
		}
		t = (struct h2_turn){
			.arena = b->arena, .arena_cap = sizeof(b->arena),
			.p = b->hp, .cap = H2_TURN_PIECES,
			.max_bytes = SEND_BUDGET,
		};
		if (!h2_conn_next_turn(&g->h, &t)) {
			/* Nothing due: what libtlsx holds goes, then wait. */
			r = tlsx_conn_flush(c->tls);
			if (r == TLSX_WANT_WRITE) {
				c->state = CS_IDLE;
				conn_poll(lp, c, true);
				return;
			}
			if (r) {
				conn_tls_failed(lp, c, r);
				return;
			}
			if (conn_ops(c)->input_kept(c)) {
				conn_yield(lp, c);
				return;
			}
			h2_wait(lp, c);
			return;
		}
		if (t.progress)
			g->stall_since = 0;
		for (k = 0; k < t.n; k++)
			b->tp[k] = (struct tlsx_piece){
				.mem = t.p[k].mem, .fd = t.p[k].fd,
				.off = (off_t)t.p[k].off,
				.len = (size_t)t.p[k].len,
			};
		i = 0;
		r = turn_push(lp, c, b->tp, t.n, &i, b->arena, t.arena_len);
		if (r <= 0)
			return;
		h2_conn_item_done(&g->h);
		/* The other connections' turn now and then. */
		if (++turns >= H2_TURNS_PER_PUMP) {
			conn_yield(lp, c);
			return;
		}
	}
}

/* Items sent between two reads while items are due. */
#define H2_ITEMS_PER_READ	16

void conn_h2_pump(struct loop *lp, struct conn *c)
{
	struct conn_h2 *g = c->h2;
	unsigned int items = 0, unread = 0;
	int r;

	/* libtlsx seals: many frames per call (tlsx_sendv()). */
	if (conn_ops(c)->h2_turns) {
		h2_pump_turns(lp, c);
		return;
	}
	if (!c->a) {
		c->a = conn_active_get(lp, c);
		if (!c->a) {
			conn_close(lp, c, false);
			return;
		}
	}
	for (;;) {
		/*
		 * Read before the first item and then every few: a
		 * WINDOW_UPDATE or RST_STREAM is seen within a few frames,
		 * and a bulk body does not pay an empty read per frame.
		 */
		if (!unread) {
			r = h2_read(lp, c);
			if (r <= 0)
				return;
		}
		if (h2_conn_over(&g->h)) {
			conn_close(lp, c, true);
			return;
		}
		if (!h2_item_plan(c)) {
			/* Nothing due: read what came before waiting. */
			if (unread) {
				unread = 0;
				continue;
			}
			/* The layer keeps input POLLIN would not announce. */
			if (conn_ops(c)->input_kept(c)) {
				conn_yield(lp, c);
				return;
			}
			h2_wait(lp, c);
			return;
		}
		unread = (unread + 1) % H2_ITEMS_PER_READ;
		g->in_pump = true;
		g->item_sent = false;
		conn_send_plan(lp, c);
		g->in_pump = false;
		if (!g->item_sent)
			return;		/* in flight: conn_h2_sent() goes on */
		h2_conn_item_done(&g->h);
		/* The other connections' turn now and then. */
		if (++items >= 64) {
			conn_yield(lp, c);
			return;
		}
	}
}

void conn_h2_sent(struct loop *lp, struct conn *c)
{
	struct conn_h2 *g = c->h2;

	if (g->in_pump) {
		g->item_sent = true;
		return;
	}
	h2_conn_item_done(&g->h);
	conn_h2_pump(lp, c);
}

/*
 * Drain (SIGTERM): GOAWAY NO_ERROR (6.8).  Waiting for input, the
 * GOAWAY is sent now (the pump does it); with an item in flight, after
 * it.  The streams taken finish; then the close.
 */
void conn_h2_drain(struct loop *lp, struct conn *c)
{
	struct conn_h2 *g = c->h2;

	h2_conn_goaway(&g->h);
	c->close_after = true;
	if (c->op == OP_POLL_IN) {
		/* The poll is cancelled; its completion pumps (-ECANCELED). */
		struct io_uring_sqe *sqe = conn_sqe(lp);

		io_uring_prep_cancel64(sqe, conn_ud(c), 0);
		io_uring_sqe_set_data64(sqe, TAG_CANCEL);
	}
}

bool conn_h2_event(struct loop *lp, struct conn *c, enum conn_op op, int res)
{
	if (op == OP_POLL_IN || op == OP_YIELD ||
	    (op == OP_POLL_OUT && c->state != CS_SEND)) {
		if (res < 0 && res != -ECANCELED) {
			conn_close(lp, c, false);
			return true;
		}
		conn_h2_pump(lp, c);
		return true;
	}
	return false;
}
