/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x509_test.h - certificates and keys made by the openssl command when
 * a test program starts (in a mkdtemp directory, removed at exit), and
 * helpers to load them.  Shared by test_x509.c, test_x509_verify.c and
 * test_pkey.c.  Include after "kselftest_harness.h".
 *
 * For each of p256, ed25519, rsa (PKCS#1 v1.5 signatures) and rsapss
 * (RSASSA-PSS signatures with the rsa keys): NAME-ca (self-signed,
 * cA, keyCertSign), NAME-int (cA, pathLen 0) and NAME-leaf (digital
 * signature, serverAuth + clientAuth, SANs www.example.com,
 * *.example.org, 192.0.2.1, 2001:db8::1).  Bad certificates under the
 * P-256 CA: other-ca (a CA nobody chains to), noca (an intermediate
 * without cA) and noca-leaf under it, ncs (cA but no keyCertSign) and
 * ncs-leaf, int2 (a CA under p256-int, whose pathLen is 0) and pl-leaf
 * under it, client-leaf (clientAuth only), crit-leaf (an unknown
 * critical extension), noku-leaf (keyEncipherment only).
 */
#ifndef TLSX_X509_TEST_H
#define TLSX_X509_TEST_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "x509/pem.h"
#include "x509/x509.h"

static const char x509_test_ext_cnf[] =
	"[req]\n"
	"distinguished_name = dn\n"
	"[dn]\n"
	"[ca]\n"
	"basicConstraints = critical, CA:TRUE\n"
	"keyUsage = critical, keyCertSign, cRLSign\n"
	"subjectKeyIdentifier = hash\n"
	"[int]\n"
	"basicConstraints = critical, CA:TRUE, pathlen:0\n"
	"keyUsage = critical, keyCertSign, cRLSign\n"
	"[int_nopl]\n"
	"basicConstraints = critical, CA:TRUE\n"
	"keyUsage = critical, keyCertSign, cRLSign\n"
	"[noca]\n"
	"basicConstraints = critical, CA:FALSE\n"
	"keyUsage = critical, keyCertSign, digitalSignature\n"
	"[nocertsign]\n"
	"basicConstraints = critical, CA:TRUE\n"
	"keyUsage = critical, digitalSignature\n"
	"[leaf]\n"
	"basicConstraints = critical, CA:FALSE\n"
	"keyUsage = critical, digitalSignature\n"
	"extendedKeyUsage = serverAuth, clientAuth\n"
	"subjectAltName = DNS:www.example.com, DNS:*.example.org, IP:192.0.2.1, IP:2001:db8::1\n"
	"[client]\n"
	"keyUsage = critical, digitalSignature\n"
	"extendedKeyUsage = clientAuth\n"
	"subjectAltName = DNS:www.example.com\n"
	"[crit]\n"
	"keyUsage = critical, digitalSignature\n"
	"subjectAltName = DNS:www.example.com\n"
	"1.3.6.1.4.1.55555.1 = critical, DER:05:00\n"
	"[noku]\n"
	"keyUsage = critical, keyEncipherment\n"
	"subjectAltName = DNS:www.example.com\n";

/* The script, run by sh in the directory with ext.cnf written. */
static const char x509_test_script[] =
	"set -e\n"
	"key() {\n"
	"	case $1 in\n"
	"	p256) openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out $2.key ;;\n"
	"	ed25519) openssl genpkey -algorithm ED25519 -out $2.key ;;\n"
	"	rsa) openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out $2.key ;;\n"
	"	esac\n"
	"}\n"
	"sigopts() {\n"
	"	case $1 in\n"
	"	p256|rsa) echo -sha256 ;;\n"
	"	rsapss) echo -sha256 -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:digest ;;\n"
	"	esac\n"
	"}\n"
	"serial=0\n"
	"sign() { # NAME SUBJECT ISSUER EXTENSIONS TYPE [DAYS]\n"
	"	serial=$((serial + 1))\n"
	"	openssl req -new -key $1.key -subj \"$2\" -config ext.cnf -out $1.csr\n"
	"	openssl x509 -req -in $1.csr -CA $3.pem -CAkey $3.key -set_serial $((0x5a5a5a5a0000 + serial)) -days ${6:-365} -extfile ext.cnf -extensions $4 $(sigopts $5) -out $1.pem\n"
	"}\n"
	"for t in p256 ed25519 rsa rsapss; do\n"
	"	for r in ca int leaf; do\n"
	"		if [ $t = rsapss ]; then cp rsa-$r.key $t-$r.key; else key $t $t-$r; fi\n"
	"	done\n"
	"	openssl req -x509 -new -key $t-ca.key -subj \"/O=tlsx/CN=$t CA\" -days 3650 -config ext.cnf -extensions ca $(sigopts $t) -set_serial 1 -out $t-ca.pem\n"
	"	sign $t-int \"/O=tlsx/CN=$t Int\" $t-ca int $t 3650\n"
	"	sign $t-leaf /CN=www.example.com $t-int leaf $t\n"
	"done\n"
	"key p256 other-ca\n"
	"openssl req -x509 -new -key other-ca.key -subj \"/O=tlsx/CN=Other CA\" -days 3650 -config ext.cnf -extensions ca -out other-ca.pem\n"
	"for n in noca ncs int2; do key p256 $n; done\n"
	"for n in noca-leaf ncs-leaf pl-leaf client-leaf crit-leaf noku-leaf; do cp p256-leaf.key $n.key; done\n"
	"sign noca /CN=noca p256-ca noca p256 3650\n"
	"sign noca-leaf /CN=www.example.com noca leaf p256\n"
	"sign ncs /CN=ncs p256-ca nocertsign p256 3650\n"
	"sign ncs-leaf /CN=www.example.com ncs leaf p256\n"
	"sign int2 /CN=int2 p256-int int_nopl p256 3650\n"
	"sign pl-leaf /CN=www.example.com int2 leaf p256\n"
	"sign client-leaf /CN=client p256-int client p256\n"
	"sign crit-leaf /CN=crit p256-int crit p256\n"
	"sign noku-leaf /CN=noku p256-int noku p256\n"
	"rm -f *.csr\n";

static char x509_test_dir[64];

/* Makes the files before any test forks; the parent removes them. */
__attribute__((constructor)) static void x509_test_setup(void)
{
	char cmd[256];
	FILE *f;

	if (x509_test_dir[0])
		return;		/* already made by another constructor */
	snprintf(x509_test_dir, sizeof(x509_test_dir), "/tmp/tlsx_x509_XXXXXX");
	if (!mkdtemp(x509_test_dir))
		goto fail;
	snprintf(cmd, sizeof(cmd), "%s/ext.cnf", x509_test_dir);
	f = fopen(cmd, "w");
	if (!f || fputs(x509_test_ext_cnf, f) < 0 || fclose(f))
		goto fail;
	snprintf(cmd, sizeof(cmd), "%s/gen.sh", x509_test_dir);
	f = fopen(cmd, "w");
	if (!f || fputs(x509_test_script, f) < 0 || fclose(f))
		goto fail;
	snprintf(cmd, sizeof(cmd), "cd %s && sh gen.sh >gen.log 2>&1",
		 x509_test_dir);
	if (system(cmd))
		goto fail;
	return;
fail:
	fprintf(stderr, "x509_test: cannot make the certificates in %s\n",
		x509_test_dir);
	exit(1);
}

static pid_t x509_test_parent;

__attribute__((constructor)) static void x509_test_note_parent(void)
{
	x509_test_parent = getpid();
}

__attribute__((destructor)) static void x509_test_cleanup(void)
{
	char cmd[128];

	if (getpid() != x509_test_parent || !x509_test_dir[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", x509_test_dir);
	if (system(cmd))
		fprintf(stderr, "x509_test: cannot remove %s\n", x509_test_dir);
}

/* Reads x509_test_dir/@name into @buf: its length, 0 when missing. */
static size_t x509_test_read(const char *name, void *buf, size_t max)
{
	char path[256];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", x509_test_dir, name);
	f = fopen(path, "rb");
	if (!f)
		return 0;
	n = fread(buf, 1, max, f);
	fclose(f);
	return n;
}

/* Runs a command (printf format) in the directory: its exit status. */
static int x509_test_sh(const char *fmt, ...)
{
	char cmd[2048];
	int n;
	va_list ap;

	n = snprintf(cmd, sizeof(cmd), "cd %s && (", x509_test_dir);
	va_start(ap, fmt);
	n += vsnprintf(cmd + n, sizeof(cmd) - (size_t)n, fmt, ap);
	va_end(ap);
	snprintf(cmd + n, sizeof(cmd) - (size_t)n, ") >/dev/null 2>&1");
	return system(cmd);
}

/* A certificate's DER, kept with its parse. */
struct x509_test_cert {
	u8 der[4096];
	size_t len;
	struct tlsx_x509 crt;
};

/*
 * Loads NAME.der, or else the first certificate of NAME.pem (decoded by
 * pem.c, which test_der_pem.c checks against openssl's DER), and parses
 * it: the parser's result.
 */
static inline int x509_test_load(struct x509_test_cert *c,
				 const char *name)
{
	static char pem[16384];
	char file[128];
	size_t n;
	int err;

	snprintf(file, sizeof(file), "%s.der", name);
	c->len = x509_test_read(file, c->der, sizeof(c->der));
	if (!c->len) {
		snprintf(file, sizeof(file), "%s.pem", name);
		n = x509_test_read(file, pem, sizeof(pem));
		err = pem_find(pem, n, "CERTIFICATE", c->der, sizeof(c->der),
			       &c->len);
		if (err)
			return err;
	}
	return tlsx_x509_parse(&c->crt, c->der, c->len);
}

#endif /* TLSX_X509_TEST_H */
