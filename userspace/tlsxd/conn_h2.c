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
	/* Records promised to the streams under way (key_plan_records). */
	uint64_t key_due;
	/* Our SETTINGS unacknowledged (RFC 9113 6.5.3): TIMER_H2_SETTINGS. */
	struct timer_node settings_timer;
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

/*
 * Records for the control frames of a connection's life (our SETTINGS,
 * ACKs, WINDOW_UPDATEs, RST_STREAMs, the GOAWAY): kept out of what
 * streams may promise under a key that cannot change.
 */
#define H2_KEY_CTL_RECORDS	16
/* The DATA payload tlsxd cuts at the default frame size (h2_conn.c). */
#define H2_KEY_FRAME		(16384 - H2_FRAME_HDR_LEN)
#define H2_KEY_RECORD		16384

/*
 * Records @s's response makes on a kernel layer, as planned: a DATA
 * frame is its 9-octet header by send(MSG_MORE) and its payload by
 * sendfile/splice, the item's last piece, which ends the record: one
 * record a frame (h2_conn.c sizes frames to fill records), counted twice
 * for a record a full socket may end early; the HEADERS block likewise.
 * A peer whose windows cut frames smaller makes more: this plans when
 * to send GOAWAY, and the per-send reserve (conn_kernel.c, key_room())
 * still keeps every send under the limit.
 */
static uint64_t stream_records(const struct h2_stream *s)
{
	uint64_t n = 2 * (1 + s->resp.head_len / H2_KEY_RECORD), frames;
	unsigned int i;

	for (i = 0; i < s->resp.nseg; i++) {
		frames = (s->resp.seg[i].len + H2_KEY_FRAME - 1) / H2_KEY_FRAME;
		n += 2 * frames;
	}
	return n;
}

/*
 * RFC 8446 5.5 on a layer that cannot change keys (the kernel's tls):
 * HTTP/1.1 ends keep-alive before the sending key's record limit
 * (conn.c, key_plan_keeps_alive()); HTTP/2 sends GOAWAY NO_ERROR with
 * the last stream taken (RFC 9113 6.8) when the next response as large
 * as @s would not fit, so the client moves its next requests to a new
 * connection while these finish.  A stream that does not fit beside
 * those under way is refused (REFUSED_STREAM: not processed, retried
 * elsewhere, 8.7); only a connection's first stream goes on regardless,
 * to be cut short at the limit as HTTP/1.1's first response is.
 */
static void h2_key_plan(struct conn_h2 *g, struct h2_stream *s)
{
	struct loop *lp = g->lp;
	uint64_t need = stream_records(s);
	enum key_plan p;

	p = conn_ops(g->c)->key_plan_records(g->c, g->key_due, need);
	if (p == KEY_FULL && g->h.accepted > 1)
		s->refuse = true;
	if (p != KEY_FITS) {
		if (!g->h.goaway_sent)
			stats_add(lp->st, STAT_KEY_LIMIT_CLOSE, 1);
		h2_conn_goaway(&g->h);
	}
	if (!s->refuse)
		g->key_due += need;
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
	h2_key_plan(g, s);
	if (s->refuse) {
		s->owner = NULL;
		return;
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
	/* Refused (h2_key_plan()): not served, not logged. */
	if (s->refuse) {
		resp_release(&s->resp);
		return;
	}
	g->key_due -= stream_records(s);
	stats_add(lp->st, STAT_REQUESTS, 1);
	stats_add(lp->st, stats_status_id(s->resp.status), 1);
	stats_add(lp->st, STAT_BYTES_BODY, s->body_sent);
	stats_add(lp->st, STAT_H2_DATA_BYTES, s->body_sent);
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


/* h2_conn_ops.count: h2_conn's events as the worker's counters. */
static void h2_count(void *owner, enum h2_count id)
{
	static const enum stat_id stat[H2_CNT_N] = {
		[H2_CNT_STREAMS] = STAT_H2_STREAMS,
		[H2_CNT_RST_PEER] = STAT_H2_RST_PEER,
		[H2_CNT_RST_SENT] = STAT_H2_RST_SENT,
		[H2_CNT_REFUSED] = STAT_H2_REFUSED,
		[H2_CNT_RAPID_RESET] = STAT_H2_RAPID_RESET,
		[H2_CNT_BLOCK_LIMIT] = STAT_H2_BLOCK_LIMIT,
		[H2_CNT_LIST_LIMIT] = STAT_H2_LIST_LIMIT,
		[H2_CNT_FLOOD] = STAT_H2_FLOOD,
		[H2_CNT_OWED] = STAT_H2_OWED,
	};
	struct conn_h2 *g = owner;

	/* The GOAWAY codes are in RFC 9113 7's order on both sides. */
	if (id >= H2_CNT_GOAWAY)
		stats_add(g->lp->st, STAT_H2_GOAWAY_NO_ERROR +
			  (id - H2_CNT_GOAWAY), 1);
	else
		stats_add(g->lp->st, stat[id], 1);
}

static const struct h2_conn_ops h2_ops = {
	.plan = h2_plan, .done = h2_done, .count = h2_count,
	.stream_get = h2_stream_get, .stream_put = h2_stream_put,
};

bool conn_h2_start(struct loop *lp, struct conn *c)
{
	struct conn_h2 *g = calloc(1, sizeof(*g));

	if (!g)
		return false;
	h2_conf_default(&g->conf);
	g->key_due = H2_KEY_CTL_RECORDS;
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
	stats_add(lp->st, STAT_H2_CONNS, 1);
	/* Our SETTINGS goes now (the first item): its ACK is due. */
	timer_node_init(&g->settings_timer);
	timer_arm(&lp->timers, &g->settings_timer, TIMER_H2_SETTINGS,
		  lp->now_ms);
	return true;
}

void conn_h2_free(struct conn *c)
{
	struct conn_h2 *g = c->h2;

	if (!g)
		return;
	timer_disarm(&g->settings_timer);
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
			if (timer_armed(&g->settings_timer) &&
			    !h2_conn_settings_pending(&g->h))
				timer_disarm(&g->settings_timer);
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
			stats_add(lp->st, STAT_H2_SEND_TIMEOUT, 1);
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

/* Nothing due: input the layer kept (no POLLIN for it) first, else wait. */
static void h2_idle(struct loop *lp, struct conn *c)
{
	if (conn_ops(c)->input_kept(c)) {
		conn_yield(lp, c);
		return;
	}
	h2_wait(lp, c);
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
			h2_idle(lp, c);
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
			h2_idle(lp, c);
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
/*
 * A frame was queued while @c may wait for input: the poll is
 * cancelled, and its completion pumps (-ECANCELED), which sends it.  With
 * an item in flight it goes after that item.
 */
static void h2_wake(struct loop *lp, struct conn *c)
{
	if (c->op == OP_POLL_IN) {
		struct io_uring_sqe *sqe = conn_sqe(lp);

		io_uring_prep_cancel64(sqe, conn_ud(c), 0);
		io_uring_sqe_set_data64(sqe, TAG_CANCEL);
	}
}

void conn_h2_drain(struct loop *lp, struct conn *c)
{
	struct conn_h2 *g = c->h2;

	h2_conn_goaway(&g->h);
	c->close_after = true;
	h2_wake(lp, c);
}

/*
 * RFC 9113 6.5.3: a peer that does not acknowledge our SETTINGS within
 * --timeout-h2-settings gets the connection error SETTINGS_TIMEOUT
 * (GOAWAY, then close_notify and close, as every connection error).
 */
void conn_h2_settings_timeout(struct loop *lp, struct timer_node *n)
{
	struct conn_h2 *g = (struct conn_h2 *)((char *)n -
			    offsetof(struct conn_h2, settings_timer));

	/* Closing already: its ops are being cancelled. */
	if (g->c->state == CS_CLOSING)
		return;
	if (h2_conn_settings_expired(&g->h))
		h2_wake(lp, g->c);
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
