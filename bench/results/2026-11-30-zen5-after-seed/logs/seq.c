#include <gemmkit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(int argc,char**argv){
  int n=4096; float *c2=malloc((size_t)4096*4096*4); memset(c2,0,(size_t)4096*4096*4); float *a=malloc((size_t)n*n*4),*b=malloc((size_t)n*n*4),*c=malloc((size_t)n*n*4);
  srand(1); for(size_t i=0;i<(size_t)n*n;i++){a[i]=rand()/(float)RAND_MAX-0.5f;b[i]=rand()/(float)RAND_MAX-0.5f;c[i]=0;}
  gk_context*ctx; gk_context_create(&ctx);
  for(int i=1;i<argc;i++){
    if(!strncmp(argv[i],"sleep",5)){ usleep(atoi(argv[i]+5)*1000); printf("%s\n",argv[i]); continue;}
    if(!strncmp(argv[i],"sweep",5)){ double t=now(); volatile float acc=0; float *arr[4]={a,b,c,c2}; for(int q=0;q<4;q++){ float s=0; for(size_t j=0;j<(size_t)n*n;j+=16) s+=arr[q][j]; acc+=s; printf("sweep %c %.4f s\n","abcd"[q],now()-t); t=now();} continue;}
    if(!strncmp(argv[i],"hold",4)){ size_t mb=64; char*p=malloc(mb<<20); memset(p,1,mb<<20); double t=now(); volatile char x=0; while(now()-t<atoi(argv[i]+4)*1e-3){ for(size_t j=0;j<(mb<<20);j+=4096) x+=p[j]; } free(p); printf("%s\n",argv[i]); continue;}
    if(!strncmp(argv[i],"spin",4)){ double t=now(); while(now()-t<atoi(argv[i]+4)*1e-3); printf("%s\n",argv[i]); continue;}
    if(!strncmp(argv[i],"churn",5)){ size_t mb=atoi(argv[i]+5); char*p=malloc(mb<<20); memset(p,1,mb<<20); free(p); printf("churn %zu\n",mb); continue;}
    int nn=n; char*at=strchr(argv[i],'@'); if(at){*at=0; nn=atoi(at+1);} float *cc=c; if(argv[i][0]=='2'){cc=c2; argv[i]++;} gk_context_set_algo(ctx,argv[i]);
    struct rusage r0,r1; getrusage(RUSAGE_SELF,&r0); double t=now(); gk_status s=gk_sgemm_ex(ctx,GK_ROW_MAJOR,GK_NO_TRANS,GK_NO_TRANS,nn,nn,nn,1,a,nn,b,nn,0,cc,nn); t=now()-t; getrusage(RUSAGE_SELF,&r1);
    printf("%-20s %7.1f GFLOPS %s wall %.3f user %.3f sys %.3f minflt %ld nivcsw %ld\n",argv[i],2.0*nn*nn*nn/t*1e-9,s?"ERR":"",t,(r1.ru_utime.tv_sec-r0.ru_utime.tv_sec)+1e-6*(r1.ru_utime.tv_usec-r0.ru_utime.tv_usec),(r1.ru_stime.tv_sec-r0.ru_stime.tv_sec)+1e-6*(r1.ru_stime.tv_usec-r0.ru_stime.tv_usec),r1.ru_minflt-r0.ru_minflt,r1.ru_nivcsw-r0.ru_nivcsw); fflush(stdout);
  }
  return 0;
}
