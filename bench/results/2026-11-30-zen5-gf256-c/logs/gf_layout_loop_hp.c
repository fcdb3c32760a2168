/* layout sensitivity: shards from one block, stride = len + pad, base 2 MiB aligned; or separate malloc (pad<0) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
#include <dlfcn.h>
#include <sys/mman.h>
#include <gemmkit.h>
#include <gemmkit_gf256.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
typedef void (*enc_t)(int,int,int,unsigned char*,unsigned char**,unsigned char**);
typedef void (*init_t)(int,int,unsigned char*,unsigned char*);
int main(int c,char**v){int k=atoi(v[1]),m=atoi(v[2]);long len=atol(v[3]);int dec=v[4][0]=='d';long pad=atol(v[5]);double secs=atof(v[6]);
 gk_rs*rs; gk_rs_create(&rs,k,m,0); uint8_t*sh[300]; uint8_t*big=NULL;
 if(pad>=0){ big=aligned_alloc(1<<21,(size_t)(k+m+2)*(len+pad)+(1<<21)); if(getenv("HUGE")) madvise(big,(size_t)(k+m+2)*(len+pad)+(1<<21),MADV_HUGEPAGE); if(getenv("NOHP")) madvise(big,(size_t)(k+m+2)*(len+pad)+(1<<21),MADV_NOHUGEPAGE); long bo=getenv("BASEOFF")?atol(getenv("BASEOFF")):0; for(int i=0;i<k+m;i++)sh[i]=big+bo+(size_t)i*(len+pad); if(getenv("RNDTOUCH")){ size_t np=((size_t)(k+m+2)*(len+pad))/4096; size_t *o=malloc(np*sizeof(size_t)); for(size_t q=0;q<np;q++)o[q]=q; srand(5); for(size_t q=np-1;q>0;q--){size_t r=rand()%(q+1); size_t t=o[q];o[q]=o[r];o[r]=t;} for(size_t q=0;q<np;q++) big[o[q]*4096]=1; } } else if(pad==-1) for(int i=0;i<k+m;i++)sh[i]=aligned_alloc(64,len);
 else { /* pad -2: offsets of a malloc layout replayed inside one block */ uint8_t*t[300]; for(int i=0;i<k+m;i++)t[i]=aligned_alloc(64,len); big=aligned_alloc(1<<21,(size_t)(k+m+2)*(len+4096)+(1<<21)+(1<<21)); for(int i=0;i<k+m;i++){ sh[i]=big+((size_t)(t[i]-t[0])+((uintptr_t)t[0]&((1<<21)-1))); } }
 if(getenv("SHOWADDR")) for(int i=0;i<k+m;i++) printf("sh[%d] %p mod4k %lx mod64k %lx\n",i,sh[i],(unsigned long)((uintptr_t)sh[i]&4095),(unsigned long)((uintptr_t)sh[i]&65535));
 for(int i=0;i<k+m;i++)for(long j=0;j<len;j++)sh[i][j]=rand();
 if(getenv("OUTOFF")){ long oo=atol(getenv("OUTOFF")); long op=getenv("OUTPAD")?atol(getenv("OUTPAD")):0; uint8_t*ob=aligned_alloc(1<<21,(size_t)4*(len+op)+oo+(1<<21)); for(int i=0;i<2;i++){ sh[i]=ob+oo+(size_t)i*(len+op); for(long j=0;j<len;j++)sh[i][j]=rand(); } }
 if(getenv("SHOWHP")){FILE*f=fopen("/proc/self/smaps_rollup","r");char l[256];while(fgets(l,256,f))if(strstr(l,"AnonHuge"))printf("%s",l);fclose(f);}
 uint8_t present[300]; for(int i=0;i<k+m;i++)present[i]=i>=2;
 gk_rs_encode(rs,len,(const uint8_t*const*)sh,sh+k);
 /* isa-l */
 void*h=dlopen("libisal.so.2",RTLD_NOW); enc_t ec=(enc_t)dlsym(h,"ec_encode_data"); init_t it=(init_t)dlsym(h,"ec_init_tables");
 uint8_t mat[300*300]; gk_rs_matrix_get(rs,mat); uint8_t*tab=malloc(32*k*m); it(k,m,mat+k*k,tab);
 double r[2][15];
 for(int q=0;q<15;q++) for(int s=0;s<2;s++){ long calls=0; double t0=now(),t; do{ for(int i=0;i<50;i++){ if(s==0){ if(dec) gk_rs_reconstruct(rs,len,sh,present,1); else gk_rs_encode(rs,len,(const uint8_t*const*)sh,sh+k);} else ec(len,k,m,tab,sh,sh+k);} calls+=50; t=now()-t0;}while(t<secs); r[s][q]=(double)k*len*calls/t/1e9; }
 int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
 qsort(r[0],15,8,cmp); qsort(r[1],15,8,cmp);
 printf("%d+%d %ld %s pad %ld: gk %.1f isal(enc) %.1f GB/s\n",k,m,len,dec?"dec":"enc",pad,r[0][7],r[1][7]); return 0;}
