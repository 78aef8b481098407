var _e,w,jt,Y,dt,Ct,At,Oe,je,ge,Dt,Xe,ze,Be,Rt,De={},Re=[],on=/acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera/i,ve=Array.isArray;function W(n,t){for(var r in t)n[r]=t[r];return n}function Ze(n){n&&n.parentNode&&n.parentNode.removeChild(n)}function ie(n,t,r){var i,a,o,s={};for(o in t)o=="key"?i=t[o]:o=="ref"?a=t[o]:s[o]=t[o];if(arguments.length>2&&(s.children=arguments.length>3?_e.call(arguments,2):r),typeof n=="function"&&n.defaultProps!=null)for(o in n.defaultProps)s[o]===void 0&&(s[o]=n.defaultProps[o]);return me(n,s,i,a,null)}function me(n,t,r,i,a){var o={type:n,props:t,key:r,ref:i,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:a??++jt,__i:-1,__u:0};return a==null&&w.vnode!=null&&w.vnode(o),o}function O(n){return n.children}function Ce(n,t){this.props=n,this.context=t}function oe(n,t){if(t==null)return n.__?oe(n.__,n.__i+1):null;for(var r;t<n.__k.length;t++)if((r=n.__k[t])!=null&&r.__e!=null)return r.__e;return typeof n.type=="function"?oe(n):null}function an(n){if(n.__P&&n.__d){var t=n.__v,r=t.__e,i=[],a=[],o=W({},t);o.__v=t.__v+1,w.vnode&&w.vnode(o),et(n.__P,o,t,n.__n,n.__P.namespaceURI,32&t.__u?[r]:null,i,r??oe(t),!!(32&t.__u),a),o.__v=t.__v,o.__.__k[o.__i]=o,qt(i,o,a),t.__e=t.__=null,o.__e!=r&&Pt(o)}}function Pt(n){if((n=n.__)!=null&&n.__c!=null)return n.__e=n.__c.base=null,n.__k.some(function(t){if(t!=null&&t.__e!=null)return n.__e=n.__c.base=t.__e}),Pt(n)}function Fe(n){(!n.__d&&(n.__d=!0)&&Y.push(n)&&!Pe.__r++||dt!=w.debounceRendering)&&((dt=w.debounceRendering)||Ct)(Pe)}function Pe(){try{for(var n,t=1;Y.length;)Y.length>t&&Y.sort(At),n=Y.shift(),t=Y.length,an(n)}finally{Y.length=Pe.__r=0}}function Tt(n,t,r,i,a,o,s,d,h,u,p){var l,c,f,g,b,I,$=i&&i.__k||Re,_=t.length;for(h=sn(r,t,$,h,_),l=0;l<_;l++)(f=r.__k[l])!=null&&(c=f.__i!=-1&&$[f.__i]||De,f.__i=l,I=et(n,f,c,a,o,s,d,h,u,p),g=f.__e,f.ref&&c.ref!=f.ref&&(c.ref&&tt(c.ref,null,f),p.push(f.ref,f.__c||g,f)),b==null&&g!=null&&(b=g),4&f.__u?(h=Nt(f,h,n),c.__e&&(c.__e=null)):typeof f.type=="function"&&I!==void 0?h=I:g&&(h=g.nextSibling),f.__u&=-7);return r.__e=b,h}function sn(n,t,r,i,a){var o,s,d,h,u,p=r.length,l=p,c=0;for(n.__k=new Array(a),o=0;o<a;o++)(s=t[o])!=null&&typeof s!="boolean"&&typeof s!="function"?(typeof s=="string"||typeof s=="number"||typeof s=="bigint"||s.constructor==String?s=n.__k[o]=me(null,s,null,null,null):ve(s)?s=n.__k[o]=me(O,{children:s},null,null,null):s.constructor===void 0&&s.__b>0?s=n.__k[o]=me(s.type,s.props,s.key,s.ref?s.ref:null,s.__v):n.__k[o]=s,h=o+c,s.__=n,s.__b=n.__b+1,d=null,(u=s.__i=cn(s,r,h,l))!=-1&&(l--,(d=r[u])&&(d.__u|=2)),d==null||d.__v==null?(u==-1&&(a>p?c--:a<p&&c++),typeof s.type!="function"&&(s.__u|=4)):u!=h&&(u==h-1?c--:u==h+1?c++:(u>h?c--:c++,s.__u|=4))):n.__k[o]=null;if(l)for(o=0;o<p;o++)(d=r[o])!=null&&(2&d.__u)==0&&(d.__e==i&&(i=oe(d)),Lt(d,d));return i}function Nt(n,t,r){var i,a;if(typeof n.type=="function"){for(i=n.__k,a=0;i&&a<i.length;a++)i[a]&&(i[a].__=n,t=Nt(i[a],t,r));return t}n.__e!=t&&(t&&n.type&&!t.parentNode&&(t=oe(n)),t=r.insertBefore(n.__e,t||null));do t=t&&t.nextSibling;while(t!=null&&t.nodeType==8);return t}function xt(n,t){return t=t||[],n==null||typeof n=="boolean"||(ve(n)?n.some(function(r){xt(r,t)}):t.push(n)),t}function cn(n,t,r,i){var a,o,s,d=n.key,h=n.type,u=t[r],p=u!=null&&(2&u.__u)==0;if(u===null&&d==null||p&&d==u.key&&h==u.type)return r;if(i>(p?1:0)){for(a=r-1,o=r+1;a>=0||o<t.length;)if((u=t[s=a>=0?a--:o++])!=null&&(2&u.__u)==0&&d==u.key&&h==u.type)return s}return-1}function ut(n,t,r){t[0]=="-"?n.setProperty(t,r??""):n[t]=r==null?"":typeof r!="number"||on.test(t)?r:r+"px"}function $e(n,t,r,i,a){var o,s;e:if(t=="style")if(typeof r=="string")n.style.cssText=r;else{if(typeof i=="string"&&(n.style.cssText=i=""),i)for(t in i)r&&t in r||ut(n.style,t,"");if(r)for(t in r)i&&r[t]==i[t]||ut(n.style,t,r[t])}else if(t[0]=="o"&&t[1]=="n")o=t!=(t=t.replace(Dt,"$1")),s=t.toLowerCase(),t=s in n||t=="onFocusOut"||t=="onFocusIn"?s.slice(2):t.slice(2),n.l||(n.l={}),n.l[t+o]=r,r?i?r[ge]=i[ge]:(r[ge]=Xe,n.addEventListener(t,o?Be:ze,o)):n.removeEventListener(t,o?Be:ze,o);else{if(a=="http://www.w3.org/2000/svg")t=t.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(t!="width"&&t!="height"&&t!="href"&&t!="list"&&t!="form"&&t!="tabIndex"&&t!="download"&&t!="rowSpan"&&t!="colSpan"&&t!="role"&&t!="popover"&&t in n)try{n[t]=r??"";break e}catch{}typeof r=="function"||(r==null||r===!1&&t[4]!="-"?n.removeAttribute(t):n.setAttribute(t,t=="popover"&&r==1?"":r))}}function ht(n){return function(t){if(this.l){var r=this.l[t.type+n];if(t[je]==null)t[je]=Xe++;else if(t[je]<r[ge])return;return r(w.event?w.event(t):t)}}}function et(n,t,r,i,a,o,s,d,h,u){var p,l,c,f,g,b,I,$,_,y,q,L,V,re,J,D,T=t.type;if(t.constructor!==void 0)return null;128&r.__u&&(h=!!(32&r.__u),o=[d=t.__e=r.__e]),(p=w.__b)&&p(t);e:if(typeof T=="function"){l=s.length;try{if(_=t.props,y=T.prototype&&T.prototype.render,q=(p=T.contextType)&&i[p.__c],L=p?q?q.props.value:p.__:i,r.__c?$=(c=t.__c=r.__c).__=c.__E:(y?t.__c=c=new T(_,L):(t.__c=c=new Ce(_,L),c.constructor=T,c.render=dn),q&&q.sub(c),c.state||(c.state={}),c.__n=i,f=c.__d=!0,c.__h=[],c._sb=[]),y&&c.__s==null&&(c.__s=c.state),y&&T.getDerivedStateFromProps!=null&&(c.__s==c.state&&(c.__s=W({},c.__s)),W(c.__s,T.getDerivedStateFromProps(_,c.__s))),g=c.props,b=c.state,c.__v=t,f)y&&T.getDerivedStateFromProps==null&&c.componentWillMount!=null&&c.componentWillMount(),y&&c.componentDidMount!=null&&c.__h.push(c.componentDidMount);else{if(y&&T.getDerivedStateFromProps==null&&_!==g&&c.componentWillReceiveProps!=null&&c.componentWillReceiveProps(_,L),t.__v==r.__v||!c.__e&&c.shouldComponentUpdate!=null&&c.shouldComponentUpdate(_,c.__s,L)===!1){t.__v!=r.__v&&(c.props=_,c.state=c.__s,c.__d=!1),t.__e=r.__e,t.__k=r.__k,t.__k.some(function(U){U&&(U.__=t)}),Re.push.apply(c.__h,c._sb),c._sb=[],c.__h.length&&s.push(c),d=oe(r);break e}c.componentWillUpdate!=null&&c.componentWillUpdate(_,c.__s,L),y&&c.componentDidUpdate!=null&&c.__h.push(function(){c.componentDidUpdate(g,b,I)})}if(c.context=L,c.props=_,c.__P=n,c.__e=!1,V=w.__r,re=0,y)c.state=c.__s,c.__d=!1,V&&V(t),p=c.render(c.props,c.state,c.context),Re.push.apply(c.__h,c._sb),c._sb=[];else do c.__d=!1,V&&V(t),p=c.render(c.props,c.state,c.context),c.state=c.__s;while(c.__d&&++re<25);c.state=c.__s,c.getChildContext!=null&&(i=W(W({},i),c.getChildContext())),y&&!f&&c.getSnapshotBeforeUpdate!=null&&(I=c.getSnapshotBeforeUpdate(g,b)),J=p!=null&&p.type===O&&p.key==null?Ot(p.props.children):p,d=Tt(n,ve(J)?J:[J],t,r,i,a,o,s,d,h,u),c.base=t.__e,t.__u&=-161,c.__h.length&&s.push(c),$&&(c.__E=c.__=null)}catch(U){if(s.length=l,t.__v=null,h||o!=null){if(U.then){for(t.__u|=h?160:128;d&&d.nodeType==8&&d.nextSibling;)d=d.nextSibling;o!=null&&(o[o.indexOf(d)]=null),t.__e=d}else if(o!=null)for(D=o.length;D--;)Ze(o[D])}else t.__e=r.__e;t.__k==null&&(t.__k=r.__k||[]),U.then||Et(t),w.__e(U,t,r)}}else o==null&&t.__v==r.__v?(t.__k=r.__k,t.__e=r.__e):d=t.__e=ln(r.__e,t,r,i,a,o,s,h,u);return(p=w.diffed)&&p(t),128&t.__u?void 0:d}function Et(n){n&&(n.__c&&(n.__c.__e=!0),n.__k&&n.__k.some(Et))}function qt(n,t,r){for(var i=0;i<r.length;i++)tt(r[i],r[++i],r[++i]);w.__c&&w.__c(t,n),n.some(function(a){try{n=a.__h,a.__h=[],n.some(function(o){o.call(a)})}catch(o){w.__e(o,a.__v)}})}function Ot(n){return typeof n!="object"||n==null||n.__b>0?n:ve(n)?n.map(Ot):n.constructor!==void 0?null:W({},n)}function ln(n,t,r,i,a,o,s,d,h){var u,p,l,c,f,g,b,I=r.props||De,$=t.props,_=t.type;if(_=="svg"?a="http://www.w3.org/2000/svg":_=="math"?a="http://www.w3.org/1998/Math/MathML":a||(a="http://www.w3.org/1999/xhtml"),o!=null){for(u=0;u<o.length;u++)if((f=o[u])&&"setAttribute"in f==!!_&&(_?f.localName==_:f.nodeType==3)){n=f,o[u]=null;break}}if(n==null){if(_==null)return document.createTextNode($);n=document.createElementNS(a,_,$.is&&$),d&&(w.__m&&w.__m(t,o),d=!1),o=null}if(_==null)I===$||d&&n.data==$||(n.data=$);else{if(o=_=="textarea"&&$.defaultValue!=null?null:o&&_e.call(n.childNodes),!d&&o!=null)for(I={},u=0;u<n.attributes.length;u++)I[(f=n.attributes[u]).name]=f.value;for(u in I)f=I[u],u=="dangerouslySetInnerHTML"?l=f:u=="children"||u in $||u=="value"&&"defaultValue"in $||u=="checked"&&"defaultChecked"in $||$e(n,u,null,f,a);for(u in $)f=$[u],u=="children"?c=f:u=="dangerouslySetInnerHTML"?p=f:u=="value"?g=f:u=="checked"?b=f:d&&typeof f!="function"||I[u]===f||$e(n,u,f,I[u],a);if(p)d||l&&(p.__html==l.__html||p.__html==n.innerHTML)||(n.innerHTML=p.__html),t.__k=[];else if(l&&(n.innerHTML=""),Tt(t.type=="template"?n.content:n,ve(c)?c:[c],t,r,i,_=="foreignObject"?"http://www.w3.org/1999/xhtml":a,o,s,o?o[0]:r.__k&&oe(r,0),d,h),o!=null)for(u=o.length;u--;)Ze(o[u]);d&&_!="textarea"||(u="value",_=="progress"&&g==null?n.removeAttribute("value"):g!=null&&(g!==n[u]||_=="progress"&&!g||_=="option"&&g!=I[u])&&$e(n,u,g,I[u],a),u="checked",b!=null&&b!=n[u]&&$e(n,u,b,I[u],a))}return n}function tt(n,t,r){try{if(typeof n=="function"){var i=typeof n.__u=="function";i&&n.__u(),i&&t==null||(n.__u=n(t))}else n.current=t}catch(a){w.__e(a,r)}}function Lt(n,t,r){var i,a;if(w.unmount&&w.unmount(n),(i=n.ref)&&(i.current&&i.current!=n.__e||tt(i,null,t)),(i=n.__c)!=null){if(i.componentWillUnmount)try{i.componentWillUnmount()}catch(o){w.__e(o,t)}i.base=i.__P=i.__n=null}if(i=n.__k)for(a=0;a<i.length;a++)i[a]&&Lt(i[a],t,r||typeof n.type!="function");r||Ze(n.__e),n.__c=n.__=n.__e=void 0}function dn(n,t,r){return this.constructor(n,r)}function un(n,t,r){var i,a,o,s;t==document&&(t=document.documentElement),w.__&&w.__(n,t),a=(i=!1)?null:t.__k,o=[],s=[],et(t,n=t.__k=ie(O,null,[n]),a||De,De,t.namespaceURI,a?null:t.firstChild?_e.call(t.childNodes):null,o,a?a.__e:t.firstChild,i,s),qt(o,n,s),n.props.children=null}function pt(n,t,r){var i,a,o,s,d=W({},n.props);for(o in n.type&&n.type.defaultProps&&(s=n.type.defaultProps),t)o=="key"?i=t[o]:o=="ref"?a=t[o]:d[o]=t[o]===void 0&&s!=null?s[o]:t[o];return arguments.length>2&&(d.children=arguments.length>3?_e.call(arguments,2):r),me(n.type,d,i||n.key,a||n.ref,null)}function Ut(n){function t(r){var i,a;return this.getChildContext||(i=new Set,(a={})[t.__c]=this,this.getChildContext=function(){return a},this.componentWillUnmount=function(){i=null},this.shouldComponentUpdate=function(o){this.props.value!=o.value&&i.forEach(function(s){s.__e=!0,Fe(s)})},this.sub=function(o){i.add(o);var s=o.componentWillUnmount;o.componentWillUnmount=function(){i&&i.delete(o),s&&s.call(o)}}),r.children}return t.__c="__cC"+Rt++,t.__=n,t.Provider=t.__l=(t.Consumer=function(r,i){return r.children(i)}).contextType=t,t}_e=Re.slice,w={__e:function(n,t,r,i){for(var a,o,s;t=t.__;)if((a=t.__c)&&!a.__)try{if((o=a.constructor)&&o.getDerivedStateFromError!=null&&(a.setState(o.getDerivedStateFromError(n)),s=a.__d),a.componentDidCatch!=null&&(a.componentDidCatch(n,i||{}),s=a.__d),s)return a.__E=a}catch(d){n=d}throw n}},jt=0,Ce.prototype.setState=function(n,t){var r;r=this.__s!=null&&this.__s!=this.state?this.__s:this.__s=W({},this.state),typeof n=="function"&&(n=n(W({},r),this.props)),n&&W(r,n),n!=null&&this.__v&&(t&&this._sb.push(t),Fe(this))},Ce.prototype.forceUpdate=function(n){this.__v&&(this.__e=!0,n&&this.__h.push(n),Fe(this))},Ce.prototype.render=O,Y=[],Ct=typeof Promise=="function"?Promise.prototype.then.bind(Promise.resolve()):setTimeout,At=function(n,t){return n.__v.__b-t.__v.__b},Pe.__r=0,Oe=Math.random().toString(8),je="__d"+Oe,ge="__a"+Oe,Dt=/(PointerCapture)$|Capture$/i,Xe=0,ze=ht(!1),Be=ht(!0),Rt=0;var hn=0;function e(n,t,r,i,a,o){t||(t={});var s,d,h=t;if("ref"in h)for(d in h={},t)d=="ref"?s=t[d]:h[d]=t[d];var u={type:n,props:h,key:r,ref:s,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:--hn,__i:-1,__u:0,__source:a,__self:o};if(typeof n=="function"&&(s=n.defaultProps))for(d in s)h[d]===void 0&&(h[d]=s[d]);return w.vnode&&w.vnode(u),u}var ae,A,Le,ft,ye=0,Kt=[],P=w,gt=P.__b,mt=P.__r,yt=P.diffed,_t=P.__c,vt=P.unmount,It=P.__;function Ie(n,t){P.__h&&P.__h(A,n,ye||t),ye=0;var r=A.__H||(A.__H={__:[],__h:[]});return n>=r.__.length&&r.__.push({}),r.__[n]}function m(n){return ye=1,nt(Bt,n)}function nt(n,t,r){var i=Ie(ae++,2);if(i.t=n,!i.__c&&(i.__=[Bt(void 0,t),function(d){var h=i.__N?i.__N[0]:i.__[0],u=i.t(h,d);h!==u&&(i.__N=[u,i.__[1]],i.__c.setState({}))}],i.__c=A,!A.__f)){var a=function(d,h,u){if(!i.__c.__H)return!0;var p=!1,l=i.__c.props!==d;if(i.__c.__H.__.some(function(f){if(f.__N){p=!0;var g=f.__[0];f.__=f.__N,f.__N=void 0,g!==f.__[0]&&(l=!0)}}),o){var c=o.call(this,d,h,u);return p?c||l:c}return!p||l};A.__f=!0;var o=A.shouldComponentUpdate,s=A.componentWillUpdate;A.componentWillUpdate=function(d,h,u){if(this.__e){var p=o;o=void 0,a(d,h,u),o=p}s&&s.call(this,d,h,u)},A.shouldComponentUpdate=a}return i.__N||i.__}function Q(n,t){var r=Ie(ae++,3);!P.__s&&it(r.__H,t)&&(r.__=n,r.u=t,A.__H.__h.push(r))}function zt(n,t){var r=Ie(ae++,4);!P.__s&&it(r.__H,t)&&(r.__=n,r.u=t,A.__h.push(r))}function M(n){return ye=5,xe(function(){return{current:n}},[])}function xe(n,t){var r=Ie(ae++,7);return it(r.__H,t)&&(r.__=n(),r.__H=t,r.__h=n),r.__}function pn(n,t){return ye=8,xe(function(){return n},t)}function rt(n){var t=A.context[n.__c],r=Ie(ae++,9);return r.c=n,t?(r.__==null&&(r.__=!0,t.sub(A)),t.props.value):n.__}function fn(){for(var n;n=Kt.shift();){var t=n.__H;if(n.__P&&t)try{t.__h.some(Ae),t.__h.some(He),t.__h=[]}catch(r){t.__h=[],P.__e(r,n.__v)}}}P.__b=function(n){A=null,gt&&gt(n)},P.__=function(n,t){n&&t.__k&&t.__k.__m&&(n.__m=t.__k.__m),It&&It(n,t)},P.__r=function(n){mt&&mt(n),ae=0;var t=(A=n.__c).__H;t&&(Le===A?(t.__h=[],A.__h=[],t.__.some(function(r){r.__N&&(r.__=r.__N),r.u=r.__N=void 0})):(t.__h.some(Ae),t.__h.some(He),t.__h=[],ae=0)),Le=A},P.diffed=function(n){yt&&yt(n);var t=n.__c;t&&t.__H&&(t.__H.__h.length&&(Kt.push(t)!==1&&ft===P.requestAnimationFrame||((ft=P.requestAnimationFrame)||gn)(fn)),t.__H.__.some(function(r){r.u&&(r.__H=r.u,r.u=void 0)})),Le=A=null},P.__c=function(n,t){t.some(function(r){try{r.__h.some(Ae),r.__h=r.__h.filter(function(i){return!i.__||He(i)})}catch(i){t.some(function(a){a.__h&&(a.__h=[])}),t=[],P.__e(i,r.__v)}}),_t&&_t(n,t)},P.unmount=function(n){vt&&vt(n);var t,r=n.__c;r&&r.__H&&(r.__H.__.some(function(i){try{Ae(i)}catch(a){t=a}}),r.__H=void 0,t&&P.__e(t,r.__v))};var bt=typeof requestAnimationFrame=="function";function gn(n){var t,r=function(){clearTimeout(i),bt&&cancelAnimationFrame(t),setTimeout(n)},i=setTimeout(r,35);bt&&(t=requestAnimationFrame(r))}function Ae(n){var t=A,r=n.__c;typeof r=="function"&&(n.__c=void 0,r()),A=t}function He(n){var t=A;n.__c=n.__(),A=t}function it(n,t){return!n||n.length!==t.length||t.some(function(r,i){return r!==n[i]})}function Bt(n,t){return typeof t=="function"?t(n):t}const mn=(function(){const t=typeof document<"u"&&document.createElement("link").relList;return t&&t.supports&&t.supports("modulepreload")?"modulepreload":"preload"})(),yn=function(n){return"/"+n},$t={},_n=function(t,r,i){let a=Promise.resolve();if(r&&r.length>0){let u=function(p){return Promise.all(p.map(l=>Promise.resolve(l).then(c=>({status:"fulfilled",value:c}),c=>({status:"rejected",reason:c}))))};var s=u;document.getElementsByTagName("link");const d=document.querySelector("meta[property=csp-nonce]"),h=d?.nonce||d?.getAttribute("nonce");a=u(r.map(p=>{if(p=yn(p),p in $t)return;$t[p]=!0;const l=p.endsWith(".css"),c=l?'[rel="stylesheet"]':"";if(document.querySelector(`link[href="${p}"]${c}`))return;const f=document.createElement("link");if(f.rel=l?"stylesheet":mn,l||(f.as="script"),f.crossOrigin="",f.href=p,h&&f.setAttribute("nonce",h),document.head.appendChild(f),l)return new Promise((g,b)=>{f.addEventListener("load",g),f.addEventListener("error",()=>b(new Error(`Unable to preload CSS for ${p}`)))})}))}function o(d){const h=new Event("vite:preloadError",{cancelable:!0});if(h.payload=d,window.dispatchEvent(h),!h.defaultPrevented)throw d}return a.then(d=>{for(const h of d||[])h.status==="rejected"&&o(h.reason);return t().catch(o)})};let le,fe;function vn(n){return!fe||(typeof fe=="string"?n.startsWith(fe):fe.test(n))}function In(n,t){let r="";if(le=void 0,t&&t.type==="click"){if(t.ctrlKey||t.metaKey||t.altKey||t.shiftKey||t.button!==0)return n;const i=t.composedPath().find(o=>o.nodeName=="A"&&o.href),a=i&&i.getAttribute("href");if(!i||i.origin!=location.origin||/^#/.test(a)||!/^(_?self)?$/i.test(i.target)||!vn(a)||i.download)return n;le=!0,t.preventDefault(),r=i.href.replace(location.origin,"")}else t&&t.url?(le=!t.replace,r=t.url):r=location.pathname+location.search;return le===!0?history.pushState(null,"",r):le===!1&&history.replaceState(null,"",r),r}const bn=(n,t,r={})=>{n=n.split("/").filter(Boolean),t=(t||"").split("/").filter(Boolean),r.params||(r.params={});for(let i=0,a,o;i<Math.max(n.length,t.length);i++){let[,s,d,h]=(t[i]||"").match(/^(:?)(.*?)([+*?]?)$/);if(a=n[i],!(!s&&d==a)){if(!s&&a&&h=="*"){r.rest="/"+n.slice(i).join("/");break}if(!s||!a&&h!="?"&&h!="*")return;if(o=h=="+"||h=="*",o?a=n.slice(i).map(decodeURIComponent).join("/")||void 0:a&&(a=decodeURIComponent(a)),r.params[d]=a,d in r||(r[d]=a),o)break}}return r};function be(n){const[t,r]=nt(In,n.url||location.pathname+location.search);n.scope&&(fe=n.scope);const i=le===!0,a=xe(()=>{const o=new URL(t,location.origin),s=o.pathname.replace(/\/+$/g,"")||"/";return{url:t,path:s,query:Object.fromEntries(o.searchParams),route:(d,h)=>r({url:d,replace:h}),back:()=>{history.back()},forward:()=>{history.forward()},wasPush:i}},[t]);return zt(()=>(addEventListener("click",r),addEventListener("popstate",r),()=>{removeEventListener("click",r),removeEventListener("popstate",r)}),[]),ie(be.ctx.Provider,{value:a},n.children)}const $n=Promise.resolve();function Me(n){const[t,r]=nt(D=>D+1,0),{url:i,query:a,wasPush:o,path:s}=B();if(!i)throw new Error("preact-iso's <Router> must be used within a <LocationProvider>, see: https://github.com/preactjs/preact-iso#locationprovider");const{rest:d=s,params:h={}}=rt(Ve),u=M(!1),p=M(s),l=M(1),c=M(),f=M(),g=M(),b=M(!1),I=M();I.current=!1;let $,_,y;xt(n.children).some(D=>{if(bn(d,D.props.path,y={...D.props,path:d,query:a,params:Object.assign({},h),rest:""}))return $=pt(D,y);D.props.default&&(_=pt(D,y))});let q=$||_;const L=c.current&&c.current.__u&we&&c.current.__u&ke,V=c.current&&c.current.__h,re=xe(()=>{f.current=c.current,c.current=ie(Ve.Provider,{value:y},q);const D=f.current&&f.current.props.children;return!D||!q||q.type!==D.type||q.props.component!==D.props.component?(l.current++,!0):!1},[i,JSON.stringify(y)]);L?(c.current.__u|=we,c.current.__u|=ke):V&&(c.current.__h=!0);const J=f.current;return f.current=null,this.__c=(D,T)=>{I.current=!0,f.current=J,n.onLoadStart&&n.onLoadStart(i),u.current=!0;let U=l.current;D.then(()=>{U===l.current&&(f.current=null,c.current&&(T.__h&&(c.current.__h=T.__h),T.__u&ke&&(c.current.__u|=ke),T.__u&we&&(c.current.__u|=we)),$n.then(r))})},zt(()=>{const D=this.__v&&this.__v.__e;if(I.current){!b.current&&!g.current&&(g.current=D);return}!b.current&&g.current&&(g.current!==D&&g.current.remove(),g.current=null),b.current=!0,p.current!==s&&(o&&scrollTo(0,0),n.onRouteChange&&n.onRouteChange(i),p.current=s),n.onLoadEnd&&u.current&&n.onLoadEnd(i),u.current=!1},[s,o,t]),re?[ie(Ue,{r:c,key:l.current}),ie(Ue,{r:f,key:l.current-1})]:ie(Ue,{r:c,key:l.current})}const we=32,ke=128,Ue=({r:n})=>n.current;Me.Provider=be;be.ctx=Ut({});const Ve=Ut({}),x=n=>ie(n.component,n),B=()=>rt(be.ctx),ee=()=>rt(Ve),We={unauthenticated:"Your session has ended. Log in again.",forbidden:"You are not allowed to do this.",not_found:"Not found, or not yours.",rate_limited:"Too many requests. Wait a moment and try again.",unavailable:"The service is unavailable right now. Try again shortly.",internal:"Something went wrong on our side. Try again; if it persists, contact support.",network:"The server cannot be reached. Check your connection and try again."};class N extends Error{code;problems;constructor(t,r,i=[]){super(r),this.code=t,this.problems=i}static from(t){const r=t[0],i=r?.extensions?.code??"internal",a=t.flatMap(s=>s.extensions?.detail??[]);let o=r?.message??"Unknown error";return i==="invalid"&&a.length>0?o="Some fields need your attention.":i!=="conflict"&&i!=="authority_not_configured"&&We[i]&&i!=="unauthenticated"&&(o=`${We[i]}${r?.message&&i!=="internal"?` (${r.message})`:""}`),new N(i,o,a)}fieldErrors(t=["input"]){const r={};for(const i of this.problems){let a=i.loc;for(;a.length>0&&t.includes(String(a[0]));)a=a.slice(1);const o=a.join(".");o in r||(r[o]=i.msg)}return r}}function Ft(){return new N("network",We.network)}function wn(n){return n instanceof N||n instanceof Error?n.message:String(n)}function kn(n){let t=n;const r=new Set;return{get:()=>t,set(i){t=i,r.forEach(a=>a(i))},subscribe(i){return r.add(i),()=>r.delete(i)}}}function Sn(n){const[t,r]=m(n.get());return Q(()=>(r(n.get()),n.subscribe(r)),[n]),t}const X=kn({status:"unknown"});let Qe;function ot(n,t,r){const i=Date.now()+t*1e3;X.set({status:"signedIn",token:n,expiresAt:i,user:r}),clearTimeout(Qe);const a=Math.max(1e4,t*1e3-6e4);Qe=setTimeout(()=>{Ee()},a)}function at(){clearTimeout(Qe),X.set({status:"signedOut"})}let Ge,pe;function jn(n){Ge=n}function Ee(){if(pe)return pe;const n=async()=>{if(!Ge)return!1;const i=await Ge();return i?(ot(i.accessToken,i.expiresIn,i.user),!0):(at(),!1)},t=navigator.locks;return pe=(t?t.request("einvoice-session-refresh",n):n()).finally(()=>{pe=void 0}),pe}const Ht="/graphql";async function Te(n,t,r){const i={"Content-Type":"application/json",Accept:"application/json"};r&&(i.Authorization=`Bearer ${r}`);let a;try{a=await fetch(Ht,{method:"POST",headers:i,body:JSON.stringify({query:n,variables:t}),credentials:"same-origin"})}catch{throw Ft()}let o;try{o=await a.json()}catch{throw a.status===429?new N("rate_limited","Too many requests. Wait a moment and try again."):new N("internal",`The server answered ${a.status}.`)}return a.status===401&&!o.errors&&(o.errors=[{message:"unauthenticated",extensions:{code:"unauthenticated"}}]),o}function wt(n){return!!n?.some(t=>t.extensions?.code==="unauthenticated")}async function R(n,...[t]){const r=n.toString();let i=await Te(r,t??{},X.get().token);if(wt(i.errors)&&X.get().token!==void 0)if(await Ee())i=await Te(r,t??{},X.get().token);else throw new N("unauthenticated","Your session has ended. Log in again.");if(i.errors?.length)throw wt(i.errors)&&X.get().status==="signedIn"&&at(),N.from(i.errors);if(!i.data)throw new N("internal","The server answered no data.");return i.data}async function st(n,t){const r=await Te(n.toString(),t??{});if(r.errors?.length)throw N.from(r.errors);if(!r.data)throw new N("internal","The server answered no data.");return r.data}const Cn="mutation RefreshSession { refreshSession { accessToken expiresIn user { id email } } }";jn(async()=>{try{return(await Te(Cn,{})).data?.refreshSession??null}catch{return null}});let de;async function An(){if(de)return de;const{createClient:n}=await _n(async()=>{const{createClient:r}=await import("./index-CVrq6WPd.js");return{createClient:r}},[]),t=`${location.protocol==="https:"?"wss":"ws"}://${location.host}${Ht}`;return de=n({url:t,lazy:!0,retryAttempts:5,shouldRetry:()=>!0,connectionParams:()=>{const r=X.get().token;return r?{Authorization:`Bearer ${r}`}:{}},on:{closed:r=>{r?.code===4403&&Ee()}}}),de}function Dn(){de?.dispose(),de=void 0}function Rn(n,t,r,i){let a,o=!1;return An().then(s=>{o||(a=s.subscribe({query:n.toString(),variables:t},{next:d=>{d.errors?.length?i(N.from(d.errors)):d.data&&r(d.data)},error:d=>{Array.isArray(d)?i(N.from(d)):i(Ft())},complete:()=>i()}))}),()=>{o=!0,a?.()}}function G(n,t){const[r,i]=m({loading:!0}),[a,o]=m(0),s=M(0);Q(()=>{const h=++s.current;i(u=>({data:u.data,loading:!0})),n().then(u=>h===s.current&&i({data:u,loading:!1}),u=>h===s.current&&i({error:u,loading:!1}))},[...t,a]);const d=pn(()=>o(h=>h+1),[]);return{...r,reload:d}}class S extends String{__apiType;value;__meta__;constructor(t,r){super(t),this.value=t,this.__meta__=r}toString(){return this.value}}const Pn=new S(`
    mutation Signup($input: SignupInput!) {
  signup(input: $input) {
    accessToken
    expiresIn
    user {
      id
      email
    }
    organization {
      id
    }
  }
}
    `),Tn=new S(`
    mutation Login($input: LoginInput!) {
  login(input: $input) {
    accessToken
    expiresIn
    user {
      id
      email
    }
    organizations {
      id
    }
  }
}
    `),Nn=new S(`
    mutation Logout {
  logout {
    revoked
  }
}
    `),xn=new S(`
    mutation EndSession {
  endSession {
    ended
  }
}
    `),En=new S(`
    query Orgs {
  me {
    id
    email
    organizations(first: 200) {
      edges {
        node {
          id
          name
          slug
          role
        }
      }
    }
  }
}
    `),qn=new S(`
    mutation CreateOrg($input: CreateOrganizationInput!) {
  createOrganization(input: $input) {
    id
    name
    slug
    role
  }
}
    `),On=new S(`
    query OrgProjects($id: ID!) {
  organization(id: $id) {
    id
    name
    role
    projects(first: 200) {
      edges {
        node {
          id
          name
          environment
          createdAt
          authority {
            configured
          }
        }
      }
    }
  }
}
    `),Ln=new S(`
    mutation CreateProject($input: CreateProjectInput!) {
  createProject(input: $input) {
    id
    name
    environment
  }
}
    `),Un=new S(`
    query Project($id: ID!) {
  project(id: $id) {
    id
    name
    environment
    createdAt
    organization {
      id
      name
      role
    }
    authority {
      taxAuthorityCode
      businessId
      serviceId
      configured
      qrEncryption
      publicKeyFingerprint
      baseUrl
      hasApiCredentials
    }
  }
}
    `),Kn=new S(`
    mutation UpdateAuthority($projectId: ID!, $input: UpdateProjectAuthorityInput!) {
  updateProjectAuthority(projectId: $projectId, input: $input) {
    id
    authority {
      taxAuthorityCode
      businessId
      serviceId
      configured
      qrEncryption
      publicKeyFingerprint
      baseUrl
      hasApiCredentials
    }
  }
}
    `),zn=new S(`
    query Keys($id: ID!) {
  apiKeyScopes
  project(id: $id) {
    id
    name
    environment
    apiKeys(first: 200) {
      edges {
        node {
          id
          keyName
          clientId
          secretLast4
          scopes
          status
          createdAt
          lastUsedAt
          rotatedAt
          revokedAt
        }
      }
    }
  }
}
    `),Bn=new S(`
    mutation CreateKey($input: CreateApiKeyInput!) {
  createApiKey(input: $input) {
    clientSecret
    key {
      id
      keyName
      clientId
      scopes
    }
  }
}
    `),Fn=new S(`
    mutation RotateKey($projectId: ID!, $keyId: ID!, $graceSeconds: Int) {
  rotateApiKey(projectId: $projectId, keyId: $keyId, graceSeconds: $graceSeconds) {
    clientSecret
    key {
      id
      keyName
      clientId
    }
  }
}
    `),Hn=new S(`
    mutation RevokeKey($projectId: ID!, $keyId: ID!) {
  revokeApiKey(projectId: $projectId, keyId: $keyId) {
    id
    status
    revokedAt
  }
}
    `),Mn=new S(`
    query Runs($id: ID!, $after: String) {
  project(id: $id) {
    id
    name
    authority {
      configured
    }
    certificationRuns(first: 20, after: $after) {
      edges {
        node {
          id
          status
          invoiceType
          issueDate
          irn
          failureReason
          createdAt
          finishedAt
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
}
    `),Vn=new S(`
    mutation StartRun($input: StartCertificationRunInput!) {
  startCertificationRun(input: $input) {
    id
    status
  }
}
    `),Wn=new S(`
    query Run($id: ID!) {
  certificationRun(id: $id) {
    id
    projectId
    status
    invoiceType
    issueDate
    irn
    failureReason
    createdAt
    finishedAt
    temporal {
      workflowId
      runId
      uiUrl
    }
    steps {
      name
      status
      attempts
      startedAt
      finishedAt
      durationMs
      httpStatus
      nrsErrorId
      message
    }
  }
}
    `),Qn=new S(`
    subscription RunUpdated($id: ID!) {
  certificationRunUpdated(id: $id) {
    id
    projectId
    status
    invoiceType
    issueDate
    irn
    failureReason
    createdAt
    finishedAt
    temporal {
      workflowId
      runId
      uiUrl
    }
    steps {
      name
      status
      attempts
      startedAt
      finishedAt
      durationMs
      httpStatus
      nrsErrorId
      message
    }
  }
}
    `),Gn=new S(`
    query Usage($id: ID!, $from: String, $to: String, $keyId: ID) {
  project(id: $id) {
    id
    name
    apiKeys(first: 200) {
      edges {
        node {
          id
          keyName
          status
        }
      }
    }
    usage(from: $from, to: $to, keyId: $keyId) {
      from
      to
      total
      keyId
      byOperation {
        operation
        count
      }
      daily {
        date
        operation
        count
      }
    }
  }
}
    `),Jn=new S(`
    query Audit($org: ID, $action: String, $after: String) {
  auditActions
  auditLogs(organizationId: $org, action: $action, first: 25, after: $after) {
    edges {
      node {
        id
        action
        createdAt
        ip
        userAgent
        requestId
        hash
        prevHash
        actor {
          type
          id
        }
        target {
          type
          id
        }
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `),Yn=new S(`
    query AuditChain($org: ID!) {
  organization(id: $org) {
    id
    auditChain {
      organizationId
      valid
      entries
      headSeq
      headHash
      problem
      brokenEntryId
      verifiedAt
    }
  }
}
    `),Xn=new S(`
    query ValidateInvoice($projectId: ID!, $input: ValidateInvoiceInput!) {
  project(id: $projectId) {
    id
    validationProfile
  }
  validateInvoice(projectId: $projectId, input: $input) {
    valid
    schemaVersion
    ruleset
    errors {
      rule
      severity
      path
      loc
      message
    }
    warnings {
      rule
      severity
      path
      loc
      message
    }
  }
}
    `),Zn=new S(`
    mutation GenerateIrn($projectId: ID!, $input: GenerateIrnInput!) {
  generateIrn(projectId: $projectId, input: $input) {
    irn
    invoiceReference
    serviceId
    issueDate
  }
}
    `),er=new S(`
    query InvoiceQr($projectId: ID!, $input: InvoiceQrCodeInput!) {
  invoiceQrCode(projectId: $projectId, input: $input, png: true) {
    irn
    timestamp
    qrPayload
    encryption
    keyFingerprint
    qrPngBase64
  }
}
    `),tr=new S(`
    query RenderInvoice($projectId: ID!, $input: RenderInvoiceInput!) {
  renderInvoice(projectId: $projectId, input: $input, pdf: true) {
    valid
    irn
    pdfBase64
  }
}
    `),nr={"\n  mutation Signup($input: SignupInput!) {\n    signup(input: $input) { accessToken expiresIn user { id email } organization { id } }\n  }\n":Pn,"\n  mutation Login($input: LoginInput!) {\n    login(input: $input) { accessToken expiresIn user { id email } organizations { id } }\n  }\n":Tn,"\n  mutation Logout {\n    logout { revoked }\n  }\n":Nn,"\n  mutation EndSession {\n    endSession { ended }\n  }\n":xn,"\n  query Orgs {\n    me { id email organizations(first: 200) { edges { node { id name slug role } } } }\n  }\n":En,"\n  mutation CreateOrg($input: CreateOrganizationInput!) {\n    createOrganization(input: $input) { id name slug role }\n  }\n":qn,"\n  query OrgProjects($id: ID!) {\n    organization(id: $id) {\n      id name role\n      projects(first: 200) { edges { node { id name environment createdAt authority { configured } } } }\n    }\n  }\n":On,"\n  mutation CreateProject($input: CreateProjectInput!) {\n    createProject(input: $input) { id name environment }\n  }\n":Ln,"\n  query Project($id: ID!) {\n    project(id: $id) {\n      id name environment createdAt\n      organization { id name role }\n      authority {\n        taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials\n      }\n    }\n  }\n":Un,"\n  mutation UpdateAuthority($projectId: ID!, $input: UpdateProjectAuthorityInput!) {\n    updateProjectAuthority(projectId: $projectId, input: $input) {\n      id authority { taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials }\n    }\n  }\n":Kn,"\n  query Keys($id: ID!) {\n    apiKeyScopes\n    project(id: $id) {\n      id name environment\n      apiKeys(first: 200) {\n        edges { node { id keyName clientId secretLast4 scopes status createdAt lastUsedAt rotatedAt revokedAt } }\n      }\n    }\n  }\n":zn,"\n  mutation CreateKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) { clientSecret key { id keyName clientId scopes } }\n  }\n":Bn,"\n  mutation RotateKey($projectId: ID!, $keyId: ID!, $graceSeconds: Int) {\n    rotateApiKey(projectId: $projectId, keyId: $keyId, graceSeconds: $graceSeconds) { clientSecret key { id keyName clientId } }\n  }\n":Fn,"\n  mutation RevokeKey($projectId: ID!, $keyId: ID!) {\n    revokeApiKey(projectId: $projectId, keyId: $keyId) { id status revokedAt }\n  }\n":Hn,"\n  query Runs($id: ID!, $after: String) {\n    project(id: $id) {\n      id name authority { configured }\n      certificationRuns(first: 20, after: $after) {\n        edges { node { id status invoiceType issueDate irn failureReason createdAt finishedAt } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n":Mn,"\n  mutation StartRun($input: StartCertificationRunInput!) {\n    startCertificationRun(input: $input) { id status }\n  }\n":Vn,"\n  query Run($id: ID!) {\n    certificationRun(id: $id) {\n      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt\n      temporal { workflowId runId uiUrl }\n      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }\n    }\n  }\n":Wn,"\n  subscription RunUpdated($id: ID!) {\n    certificationRunUpdated(id: $id) {\n      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt\n      temporal { workflowId runId uiUrl }\n      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }\n    }\n  }\n":Qn,"\n  query Usage($id: ID!, $from: String, $to: String, $keyId: ID) {\n    project(id: $id) {\n      id name\n      apiKeys(first: 200) { edges { node { id keyName status } } }\n      usage(from: $from, to: $to, keyId: $keyId) {\n        from to total keyId\n        byOperation { operation count }\n        daily { date operation count }\n      }\n    }\n  }\n":Gn,"\n  query Audit($org: ID, $action: String, $after: String) {\n    auditActions\n    auditLogs(organizationId: $org, action: $action, first: 25, after: $after) {\n      edges { node { id action createdAt ip userAgent requestId hash prevHash actor { type id } target { type id } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n":Jn,"\n  query AuditChain($org: ID!) {\n    organization(id: $org) {\n      id\n      auditChain { organizationId valid entries headSeq headHash problem brokenEntryId verifiedAt }\n    }\n  }\n":Yn,"\n  query ValidateInvoice($projectId: ID!, $input: ValidateInvoiceInput!) {\n    project(id: $projectId) { id validationProfile }\n    validateInvoice(projectId: $projectId, input: $input) {\n      valid schemaVersion ruleset\n      errors { rule severity path loc message }\n      warnings { rule severity path loc message }\n    }\n  }\n":Xn,"\n  mutation GenerateIrn($projectId: ID!, $input: GenerateIrnInput!) {\n    generateIrn(projectId: $projectId, input: $input) { irn invoiceReference serviceId issueDate }\n  }\n":Zn,"\n  query InvoiceQr($projectId: ID!, $input: InvoiceQrCodeInput!) {\n    invoiceQrCode(projectId: $projectId, input: $input, png: true) { irn timestamp qrPayload encryption keyFingerprint qrPngBase64 }\n  }\n":er,"\n  query RenderInvoice($projectId: ID!, $input: RenderInvoiceInput!) {\n    renderInvoice(projectId: $projectId, input: $input, pdf: true) { valid irn pdfBase64 }\n  }\n":tr};function j(n){return nr[n]??{}}const rr=j(`
  mutation Signup($input: SignupInput!) {
    signup(input: $input) { accessToken expiresIn user { id email } organization { id } }
  }
`),ir=j(`
  mutation Login($input: LoginInput!) {
    login(input: $input) { accessToken expiresIn user { id email } organizations { id } }
  }
`),or=j(`
  mutation Logout {
    logout { revoked }
  }
`),ar=j(`
  mutation EndSession {
    endSession { ended }
  }
`),ct=j(`
  query Orgs {
    me { id email organizations(first: 200) { edges { node { id name slug role } } } }
  }
`),sr=j(`
  mutation CreateOrg($input: CreateOrganizationInput!) {
    createOrganization(input: $input) { id name slug role }
  }
`),cr=j(`
  query OrgProjects($id: ID!) {
    organization(id: $id) {
      id name role
      projects(first: 200) { edges { node { id name environment createdAt authority { configured } } } }
    }
  }
`),lr=j(`
  mutation CreateProject($input: CreateProjectInput!) {
    createProject(input: $input) { id name environment }
  }
`),dr=j(`
  query Project($id: ID!) {
    project(id: $id) {
      id name environment createdAt
      organization { id name role }
      authority {
        taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials
      }
    }
  }
`),ur=j(`
  mutation UpdateAuthority($projectId: ID!, $input: UpdateProjectAuthorityInput!) {
    updateProjectAuthority(projectId: $projectId, input: $input) {
      id authority { taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials }
    }
  }
`),hr=j(`
  query Keys($id: ID!) {
    apiKeyScopes
    project(id: $id) {
      id name environment
      apiKeys(first: 200) {
        edges { node { id keyName clientId secretLast4 scopes status createdAt lastUsedAt rotatedAt revokedAt } }
      }
    }
  }
`),pr=j(`
  mutation CreateKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) { clientSecret key { id keyName clientId scopes } }
  }
`),fr=j(`
  mutation RotateKey($projectId: ID!, $keyId: ID!, $graceSeconds: Int) {
    rotateApiKey(projectId: $projectId, keyId: $keyId, graceSeconds: $graceSeconds) { clientSecret key { id keyName clientId } }
  }
`),gr=j(`
  mutation RevokeKey($projectId: ID!, $keyId: ID!) {
    revokeApiKey(projectId: $projectId, keyId: $keyId) { id status revokedAt }
  }
`),mr=j(`
  query Runs($id: ID!, $after: String) {
    project(id: $id) {
      id name authority { configured }
      certificationRuns(first: 20, after: $after) {
        edges { node { id status invoiceType issueDate irn failureReason createdAt finishedAt } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`),yr=j(`
  mutation StartRun($input: StartCertificationRunInput!) {
    startCertificationRun(input: $input) { id status }
  }
`),_r=j(`
  query Run($id: ID!) {
    certificationRun(id: $id) {
      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt
      temporal { workflowId runId uiUrl }
      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }
    }
  }
`),vr=j(`
  subscription RunUpdated($id: ID!) {
    certificationRunUpdated(id: $id) {
      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt
      temporal { workflowId runId uiUrl }
      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }
    }
  }
`),Ir=j(`
  query Usage($id: ID!, $from: String, $to: String, $keyId: ID) {
    project(id: $id) {
      id name
      apiKeys(first: 200) { edges { node { id keyName status } } }
      usage(from: $from, to: $to, keyId: $keyId) {
        from to total keyId
        byOperation { operation count }
        daily { date operation count }
      }
    }
  }
`),br=j(`
  query Audit($org: ID, $action: String, $after: String) {
    auditActions
    auditLogs(organizationId: $org, action: $action, first: 25, after: $after) {
      edges { node { id action createdAt ip userAgent requestId hash prevHash actor { type id } target { type id } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`),$r=j(`
  query AuditChain($org: ID!) {
    organization(id: $org) {
      id
      auditChain { organizationId valid entries headSeq headHash problem brokenEntryId verifiedAt }
    }
  }
`),wr=j(`
  query ValidateInvoice($projectId: ID!, $input: ValidateInvoiceInput!) {
    project(id: $projectId) { id validationProfile }
    validateInvoice(projectId: $projectId, input: $input) {
      valid schemaVersion ruleset
      errors { rule severity path loc message }
      warnings { rule severity path loc message }
    }
  }
`),kr=j(`
  mutation GenerateIrn($projectId: ID!, $input: GenerateIrnInput!) {
    generateIrn(projectId: $projectId, input: $input) { irn invoiceReference serviceId issueDate }
  }
`),Sr=j(`
  query InvoiceQr($projectId: ID!, $input: InvoiceQrCodeInput!) {
    invoiceQrCode(projectId: $projectId, input: $input, png: true) { irn timestamp qrPayload encryption keyFingerprint qrPngBase64 }
  }
`),jr=j(`
  query RenderInvoice($projectId: ID!, $input: RenderInvoiceInput!) {
    renderInvoice(projectId: $projectId, input: $input, pdf: true) { valid irn pdfBase64 }
  }
`);function F(n){const t=M(null);return Q(()=>{document.title=`${n.title} · einvoice`,t.current?.focus({preventScroll:!1})},[n.title]),e("section",{class:"page","aria-labelledby":"page-title",children:[e("div",{class:"page-head",children:[e("h1",{id:"page-title",tabIndex:-1,ref:t,children:n.title}),n.actions&&e("div",{class:"page-actions",children:n.actions})]}),n.lead&&e("p",{class:"lead",children:n.lead}),n.children]})}function K(n){return e("p",{class:"loading",role:"status","aria-live":"polite",children:[e("span",{class:"spinner","aria-hidden":"true"})," ",n.label??"Loading…"]})}function ce(n){return e("div",{class:"empty",children:n.children})}function z(n){return n.error?e("div",{class:"alert error",role:"alert",children:[e("p",{children:wn(n.error)}),n.retry&&e("button",{type:"button",class:"secondary",onClick:n.retry,children:"Try again"})]}):null}function Mt(n){return e("div",{class:`alert ${n.kind??"ok"}`,role:"status",children:n.children})}let Cr=0;function Vt(n){const[t]=m(()=>`${n}-${++Cr}`);return t}function C({label:n,name:t,error:r,hint:i,...a}){const o=Vt(t),s=[i?`${o}-hint`:"",r?`${o}-error`:""].filter(Boolean).join(" ")||void 0;return e("div",{class:`field${r?" invalid":""}`,children:[e("label",{for:o,children:n}),e("input",{id:o,name:t,"aria-invalid":r?"true":void 0,"aria-describedby":s,...a}),i&&e("p",{class:"hint",id:`${o}-hint`,children:i}),r&&e("p",{class:"field-error",id:`${o}-error`,children:r})]})}function se({label:n,name:t,error:r,children:i,...a}){const o=Vt(t);return e("div",{class:`field${r?" invalid":""}`,children:[e("label",{for:o,children:n}),e("select",{id:o,name:t,"aria-invalid":r?"true":void 0,"aria-describedby":r?`${o}-error`:void 0,...a,children:i}),r&&e("p",{class:"field-error",id:`${o}-error`,children:r})]})}function te(n){if(!n.error)return null;const t=n.error;if(t instanceof N&&t.code==="invalid"){const r=t.fieldErrors(),i=Object.entries(r).filter(([a])=>!n.fields?.includes(a));return e("div",{class:"alert error",role:"alert",children:[e("p",{children:t.message}),i.length>0&&e("ul",{children:i.map(([a,o])=>e("li",{children:[e("code",{children:a||"request"}),": ",o]},a))})]})}return e(z,{error:t})}function ne(n){return n instanceof N?n.fieldErrors():{}}function kt(n){const t=M(null);return Q(()=>{const r=t.current;r&&(n.open&&!r.open&&r.showModal(),!n.open&&r.open&&r.close())},[n.open]),e("dialog",{ref:t,"aria-labelledby":"confirm-title",onClose:n.onClose,onCancel:n.onClose,children:[e("h2",{id:"confirm-title",children:n.title}),n.children,e("div",{class:"dialog-actions",children:[e("button",{type:"button",class:"secondary",onClick:n.onClose,children:"Cancel"}),e("button",{type:"button",class:n.danger?"danger":"",disabled:n.busy,onClick:n.onConfirm,children:n.confirm})]})]})}function Je(n){const[t,r]=m("");return e("span",{class:"copy",children:[e("button",{type:"button",class:"secondary",onClick:async()=>{try{await navigator.clipboard.writeText(n.text),r("ok")}catch{r("fail")}},children:n.label??"Copy"}),e("span",{role:"status","aria-live":"polite",class:"copy-status",children:t==="ok"?"Copied":t==="fail"?"Copy failed: select the text and copy it":""})]})}function Z(n){return n?new Date(n).toLocaleString(void 0,{dateStyle:"medium",timeStyle:"short"}):"—"}function E(n){return e("span",{class:`badge ${n.tone??"info"}`,children:n.children})}const Ar=[{path:"",label:"Overview"},{path:"/keys",label:"API keys"},{path:"/certification",label:"Certification"},{path:"/usage",label:"Usage"},{path:"/workbench",label:"Workbench"}],Dr=[{path:"/projects",label:"Projects"},{path:"/audit",label:"Audit log"}],ue="einvoice.org";function Rr(n){const t=n.next;return t&&t.startsWith("/")&&!t.startsWith("//")?t:"/"}function Pr(){const n=B(),[t,r]=m(),[i,a]=m(!1),o=async d=>{d.preventDefault();const h=new FormData(d.currentTarget);a(!0),r(void 0);try{const u=await st(ir,{input:{email:String(h.get("email")),password:String(h.get("password"))}});ot(u.login.accessToken,u.login.expiresIn,u.login.user),n.route(Rr(n.query),!0)}catch(u){r(u)}finally{a(!1)}},s=ne(t);return e("div",{class:"auth",children:e(F,{title:"Log in to einvoice",children:[e("form",{onSubmit:o,noValidate:!0,children:[e(C,{label:"Email",name:"email",type:"email",autoComplete:"email",required:!0,error:s.email}),e(C,{label:"Password",name:"password",type:"password",autoComplete:"current-password",required:!0,error:s.password}),e(te,{error:t,fields:["email","password"]}),e("button",{type:"submit",disabled:i,children:i?"Logging in…":"Log in"})]}),e("p",{children:["New here? ",e("a",{href:"/signup",children:"Create an account"})]})]})})}function Tr(){const n=B(),[t,r]=m(),[i,a]=m(!1),[o,s]=m(""),[d,h]=m(!1),u=async l=>{l.preventDefault();const c=new FormData(l.currentTarget);a(!0),r(void 0);try{const f=await st(rr,{input:{email:String(c.get("email")),password:String(c.get("password")),organizationName:String(c.get("organizationName")),organizationSlug:String(c.get("organizationSlug"))}});ot(f.signup.accessToken,f.signup.expiresIn,f.signup.user),f.signup.organization?(localStorage.setItem(ue,f.signup.organization.id),n.route(`/orgs/${f.signup.organization.id}/projects`,!0)):n.route("/",!0)}catch(f){r(f)}finally{a(!1)}},p=ne(t);return e("div",{class:"auth",children:e(F,{title:"Create your einvoice account",children:[e("form",{onSubmit:u,noValidate:!0,children:[e(C,{label:"Email",name:"email",type:"email",autoComplete:"email",required:!0,error:p.email}),e(C,{label:"Password",name:"password",type:"password",autoComplete:"new-password",required:!0,minLength:8,hint:"At least 8 characters.",error:p.password}),e(C,{label:"Organization name",name:"organizationName",required:!0,autoComplete:"organization",error:p.organizationName,onInput:l=>{d||s(Wt(l.currentTarget.value))}}),e(C,{label:"Organization slug",name:"organizationSlug",required:!0,value:o,hint:"Lower-case letters and digits in dash-separated groups, such as sango-supplies.",error:p.organizationSlug,onInput:l=>{h(!0),s(l.currentTarget.value)}}),e(te,{error:t,fields:["email","password","organizationName","organizationSlug"]}),e("button",{type:"submit",disabled:i,children:i?"Creating…":"Create account"})]}),e("p",{children:["Have an account? ",e("a",{href:"/login",children:"Log in"})]})]})})}function Wt(n){return n.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g,"-").replace(/^-+|-+$/g,"").slice(0,100)}function Nr(){const n=B(),t=G(()=>R(ct),[]),[r,i]=m(),[a,o]=m(!1),[s,d]=m(""),h=async l=>{l.preventDefault();const c=new FormData(l.currentTarget);o(!0),i(void 0);try{const f=await R(sr,{input:{name:String(c.get("name")),slug:String(c.get("slug"))}});localStorage.setItem(ue,f.createOrganization.id),n.route(`/orgs/${f.createOrganization.id}/projects`)}catch(f){i(f)}finally{o(!1)}},u=ne(r),p=t.data?.me.organizations.edges??[];return e(F,{title:"Organizations",lead:"An organization owns projects and their API keys. Switch between yours or create one.",children:[t.loading&&!t.data&&e(K,{}),e(z,{error:t.error,retry:t.reload}),t.data&&p.length===0&&e(ce,{children:"You belong to no organization yet. Create one below."}),p.length>0&&e("ul",{class:"cards",children:p.map(({node:l})=>e("li",{class:"card",children:[e("a",{href:`/orgs/${l.id}/projects`,onClick:()=>localStorage.setItem(ue,l.id),children:l.name}),e("span",{class:"muted",children:[" ",l.slug]})," ",e(E,{children:l.role.toLowerCase()})]},l.id))}),e("form",{onSubmit:h,class:"panel",noValidate:!0,children:[e("h2",{children:"New organization"}),e(C,{label:"Name",name:"name",required:!0,error:u.name,onInput:l=>d(Wt(l.currentTarget.value))}),e(C,{label:"Slug",name:"slug",required:!0,value:s,onInput:l=>d(l.currentTarget.value),error:u.slug}),e(te,{error:r,fields:["name","slug"]}),e("button",{type:"submit",disabled:a,children:a?"Creating…":"Create organization"})]})]})}function he(n){const t=B(),r=`/projects/${n.projectId}`;return e(O,{children:[e("nav",{"aria-label":"Breadcrumb",class:"crumbs",children:[n.org&&e("a",{href:`/orgs/${n.org.id}/projects`,children:n.org.name}),n.org&&e("span",{"aria-hidden":"true",children:" / "}),e("span",{children:n.project??"Project"})]}),e("nav",{"aria-label":"Project",class:"tabs",children:Ar.map(i=>e("a",{href:r+i.path,"aria-current":t.path===r+i.path?"page":void 0,children:i.label},i.path))})]})}function Qt(n){const t=B(),r=`/orgs/${n.orgId}`;return e("nav",{"aria-label":"Organization",class:"tabs",children:[Dr.map(i=>e("a",{href:r+i.path,"aria-current":t.path===r+i.path?"page":void 0,children:i.label},i.path)),n.children]})}function Gt(n){const t=B(),i=G(()=>R(ct),[]).data?.me.organizations.edges??[];return i.length<2?null:e("div",{class:"switcher",children:[e("label",{for:"org-switch",children:"Switch organization"}),e("select",{id:"org-switch",value:n.orgId,onChange:a=>{const o=a.currentTarget.value;localStorage.setItem(ue,o),t.route(`/orgs/${o}/projects`)},children:i.map(({node:a})=>e("option",{value:a.id,children:a.name},a.id))})]})}function xr(){const{params:n}=ee(),t=n.orgId,r=B(),i=G(()=>R(cr,{id:t}),[t]),[a,o]=m(),[s,d]=m(!1);Q(()=>localStorage.setItem(ue,t),[t]);const h=i.data?.organization,u=async f=>{f.preventDefault();const g=new FormData(f.currentTarget);d(!0),o(void 0);try{const b=await R(lr,{input:{organizationId:t,name:String(g.get("name")),environment:g.get("environment")==="PRODUCTION"?"PRODUCTION":"SANDBOX"}});r.route(`/projects/${b.createProject.id}`)}catch(b){o(b)}finally{d(!1)}},p=ne(a),l=h?.projects.edges??[],c=h&&h.role!=="MEMBER";return e(F,{title:h?`${h.name}: projects`:"Projects",actions:e(Gt,{orgId:t}),children:[e(Qt,{orgId:t}),i.loading&&!i.data&&e(K,{label:"Loading projects…"}),e(z,{error:i.error,retry:i.reload}),h&&l.length===0&&e(ce,{children:e("p",{children:"No projects yet. A project is one integration with NRS: start with a sandbox project to try the API."})}),l.length>0&&e("ul",{class:"cards","aria-label":"Projects",children:l.map(({node:f})=>e("li",{class:"card",children:[e("a",{href:`/projects/${f.id}`,children:f.name})," ",e(E,{tone:f.environment==="PRODUCTION"?"warn":"info",children:f.environment.toLowerCase()})," ",!f.authority.configured&&e(E,{tone:"bad",children:"not configured"}),e("div",{class:"muted small",children:["Created ",Z(f.createdAt)]})]},f.id))}),c&&e("form",{onSubmit:u,class:"panel",noValidate:!0,children:[e("h2",{children:"New project"}),e(C,{label:"Project name",name:"name",required:!0,error:p.name}),e(se,{label:"Environment",name:"environment",error:p.environment,children:[e("option",{value:"SANDBOX",children:"Sandbox: provisioned at once, talks to the NRS sandbox"}),e("option",{value:"PRODUCTION",children:"Production: needs your NRS business settings"})]}),e(te,{error:a,fields:["name","environment"]}),e("button",{type:"submit",disabled:s,children:s?"Creating…":"Create project"})]})]})}function Er(){const{params:n}=ee(),t=n.projectId,r=G(()=>R(dr,{id:t}),[t]),i=r.data?.project;return e(F,{title:i?i.name:"Project",children:[e(he,{projectId:t,org:i?.organization,project:i?.name}),r.loading&&!i&&e(K,{}),e(z,{error:r.error,retry:r.reload}),i&&e(O,{children:[e("dl",{class:"facts",children:[e("dt",{children:"Environment"}),e("dd",{children:e(E,{tone:i.environment==="PRODUCTION"?"warn":"info",children:i.environment.toLowerCase()})}),e("dt",{children:"Created"}),e("dd",{children:Z(i.createdAt)}),e("dt",{children:"Tax authority"}),e("dd",{children:i.authority.taxAuthorityCode}),e("dt",{children:"Business id"}),e("dd",{children:e("code",{children:i.authority.businessId??"—"})}),e("dt",{children:"Service id"}),e("dd",{children:e("code",{children:i.authority.serviceId??"—"})}),e("dt",{children:"Status"}),e("dd",{children:i.authority.configured?e(E,{tone:"ok",children:"configured"}):e(E,{tone:"bad",children:"not configured"})}),e("dt",{children:"API credentials"}),e("dd",{children:i.authority.hasApiCredentials?"stored (never shown)":"none"}),e("dt",{children:"QR encryption"}),e("dd",{children:i.authority.qrEncryption}),e("dt",{children:"Public key fingerprint"}),e("dd",{children:e("code",{class:"wrap",children:i.authority.publicKeyFingerprint??"—"})})]}),i.environment==="PRODUCTION"&&i.organization.role!=="MEMBER"&&e(Or,{projectId:t,onSaved:r.reload}),i.environment==="SANDBOX"&&e("p",{class:"muted",children:"Sandbox projects are provisioned by einvoice and talk to the NRS sandbox stand-in: nothing to configure."})]})]})}const qr=["taxAuthorityCode","businessId","serviceId","publicKey","certificate","apiKey","apiSecret","baseUrl","qrEncryption"];function Or(n){const[t,r]=m(),[i,a]=m(!1),[o,s]=m(!1),d=async u=>{u.preventDefault();const p=u.currentTarget,l=new FormData(p),c=f=>{const g=String(l.get(f)??"").trim();return g===""?null:g};a(!0),r(void 0),s(!1);try{await R(ur,{projectId:n.projectId,input:{taxAuthorityCode:String(l.get("taxAuthorityCode")??"NRS"),businessId:String(l.get("businessId")??""),serviceId:String(l.get("serviceId")??""),publicKey:String(l.get("publicKey")??""),certificate:String(l.get("certificate")??""),apiKey:c("apiKey"),apiSecret:c("apiSecret"),baseUrl:c("baseUrl"),qrEncryption:c("qrEncryption")}});for(const f of["publicKey","certificate","apiKey","apiSecret"])p.elements.namedItem(f).value="";s(!0),n.onSaved()}catch(f){r(f)}finally{a(!1)}},h=ne(t);return e("form",{class:"panel",onSubmit:d,noValidate:!0,children:[e("h2",{children:"Tax authority settings"}),e("p",{class:"muted",children:"The values NRS issued your business. The key, certificate and API credentials are encrypted at rest and never shown again: to change one, enter them all anew."}),e(C,{label:"Tax authority",name:"taxAuthorityCode",value:"NRS",readOnly:!0,error:h.taxAuthorityCode}),e(C,{label:"Business id",name:"businessId",required:!0,error:h.businessId,hint:"The UUID NRS gave your business."}),e(C,{label:"Service id",name:"serviceId",required:!0,error:h.serviceId,hint:"8 letters or digits."}),e(C,{label:"Public key",name:"publicKey",type:"password",autoComplete:"off",required:!0,error:h.publicKey,hint:"From crypto_keys.txt: PEM, or base64 of it."}),e(C,{label:"Certificate",name:"certificate",type:"password",autoComplete:"off",required:!0,error:h.certificate}),e(C,{label:"NRS API key",name:"apiKey",type:"password",autoComplete:"off",error:h.apiKey,hint:"Given together with the API secret."}),e(C,{label:"NRS API secret",name:"apiSecret",type:"password",autoComplete:"off",error:h.apiSecret}),e(C,{label:"Base URL (optional)",name:"baseUrl",type:"url",error:h.baseUrl}),e(C,{label:"QR encryption (optional)",name:"qrEncryption",error:h.qrEncryption,hint:"Such as RSA-PKCS1-v1_5."}),e(te,{error:t,fields:qr}),o&&e(Mt,{children:"Saved. The secrets are stored encrypted and cleared from this page."}),e("button",{type:"submit",disabled:i,children:i?"Saving…":"Save settings"})]})}function Lr(){const{params:n}=ee(),t=n.projectId,r=G(()=>R(hr,{id:t}),[t]),[i,a]=m(),[o,s]=m(),[d,h]=m(),[u,p]=m("3600"),[l,c]=m(!1),[f,g]=m(),b=r.data?.project,I=b?.apiKeys.edges??[],$=async()=>{if(o){c(!0),g(void 0);try{const y=await R(fr,{projectId:t,keyId:o.id,graceSeconds:Number(u)});a({keyName:y.rotateApiKey.key.keyName,clientId:y.rotateApiKey.key.clientId,secret:y.rotateApiKey.clientSecret,rotated:!0}),s(void 0),r.reload()}catch(y){g(y)}finally{c(!1)}}},_=async()=>{if(d){c(!0),g(void 0);try{await R(gr,{projectId:t,keyId:d.id}),h(void 0),r.reload()}catch(y){g(y)}finally{c(!1)}}};return e(F,{title:b?`${b.name}: API keys`:"API keys",children:[e(he,{projectId:t,project:b?.name}),r.loading&&!b&&e(K,{label:"Loading keys…"}),e(z,{error:r.error,retry:r.reload}),i&&e(Ur,{r:i,onDone:()=>a(void 0)}),e(z,{error:f}),b&&I.length===0&&e(ce,{children:"No API keys yet. Create one to call the API from your systems."}),I.length>0&&e("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"API keys",children:e("table",{children:[e("caption",{class:"sr-only",children:"API keys"}),e("thead",{children:e("tr",{children:[e("th",{scope:"col",children:"Name"}),e("th",{scope:"col",children:"Client id"}),e("th",{scope:"col",children:"Secret"}),e("th",{scope:"col",children:"Status"}),e("th",{scope:"col",children:"Last used"}),e("th",{scope:"col",children:e("span",{class:"sr-only",children:"Actions"})})]})}),e("tbody",{children:I.map(({node:y})=>e("tr",{children:[e("th",{scope:"row",children:[y.keyName,e("div",{class:"muted small",children:y.scopes.length===r.data.apiKeyScopes.length?"all scopes":y.scopes.join(", ")})]}),e("td",{children:e("code",{children:y.clientId})}),e("td",{children:e("code",{children:["…",y.secretLast4]})}),e("td",{children:[e(E,{tone:y.status==="ACTIVE"?"ok":"bad",children:y.status.toLowerCase()}),y.rotatedAt&&e("div",{class:"muted small",children:["rotated ",Z(y.rotatedAt)]})]}),e("td",{children:Z(y.lastUsedAt)}),e("td",{class:"row-actions",children:y.status==="ACTIVE"&&e(O,{children:[e("button",{type:"button",class:"secondary",onClick:()=>s({id:y.id,name:y.keyName}),"aria-label":`Rotate ${y.keyName}`,children:"Rotate"}),e("button",{type:"button",class:"danger",onClick:()=>h({id:y.id,name:y.keyName}),"aria-label":`Revoke ${y.keyName}`,children:"Revoke"})]})})]},y.id))})]})}),r.data&&e(Kr,{projectId:t,scopes:r.data.apiKeyScopes,onCreated:y=>{a(y),r.reload()}}),e(kt,{open:!!o,title:`Rotate ${o?.name??""}`,confirm:"Rotate key",busy:l,onConfirm:$,onClose:()=>s(void 0),children:[e("p",{children:"The key gets a new secret. The old one keeps working for the grace period, so your systems can switch without downtime."}),e(se,{label:"Grace period for the old secret",name:"grace",value:u,onChange:y=>p(y.currentTarget.value),children:[e("option",{value:"0",children:"None: the old secret stops now"}),e("option",{value:"3600",children:"1 hour"}),e("option",{value:"86400",children:"1 day"}),e("option",{value:"604800",children:"7 days"})]})]}),e(kt,{open:!!d,title:`Revoke ${d?.name??""}?`,confirm:"Revoke key",danger:!0,busy:l,onConfirm:_,onClose:()=>h(void 0),children:e("p",{children:"Every request with this key is refused from now on. This cannot be undone."})})]})}function Ur(n){return e("section",{class:"panel secret","aria-labelledby":"secret-title",children:[e("h2",{id:"secret-title",tabIndex:-1,ref:t=>t?.focus(),children:[n.r.rotated?"New secret":"Your new key",": ",n.r.keyName]}),e("p",{class:"warning",role:"alert",children:"Copy the secret now and store it safely. It is shown only this once: einvoice keeps only a hash of it."}),e("dl",{class:"facts",children:[e("dt",{children:"Client id (X-Client-Id)"}),e("dd",{children:[e("code",{"data-testid":"client-id",children:n.r.clientId})," ",e(Je,{text:n.r.clientId,label:"Copy client id"})]}),e("dt",{children:"Client secret (X-Client-Secret)"}),e("dd",{children:[e("code",{"data-testid":"client-secret",class:"wrap",children:n.r.secret})," ",e(Je,{text:n.r.secret,label:"Copy secret"})]})]}),e("button",{type:"button",onClick:n.onDone,children:"I have stored the secret"})]})}function Kr(n){const[t,r]=m(),[i,a]=m(!1),o=async d=>{d.preventDefault();const h=d.currentTarget,u=new FormData(h),p=u.getAll("scopes").map(String);a(!0),r(void 0);try{const l=await R(pr,{input:{projectId:n.projectId,keyName:String(u.get("keyName")),scopes:p.length?p:null}});h.reset(),n.onCreated({keyName:l.createApiKey.key.keyName,clientId:l.createApiKey.key.clientId,secret:l.createApiKey.clientSecret,rotated:!1})}catch(l){r(l)}finally{a(!1)}},s=ne(t);return e("form",{class:"panel",onSubmit:o,noValidate:!0,children:[e("h2",{children:"New API key"}),e(C,{label:"Key name",name:"keyName",required:!0,error:s.keyName,hint:"Such as erp-production."}),e("fieldset",{children:[e("legend",{children:"Scopes (none ticked: every scope)"}),e("div",{class:"checks",children:n.scopes.map(d=>e("label",{class:"check",children:[e("input",{type:"checkbox",name:"scopes",value:d})," ",e("code",{children:d})]},d))}),s.scopes&&e("p",{class:"field-error",children:s.scopes})]}),e(te,{error:t,fields:["keyName","scopes"]}),e("button",{type:"submit",disabled:i,children:i?"Creating…":"Create key"})]})}const Ye=n=>n==="PASSED"?"ok":n==="FAILED"||n==="CANCELLED"?"bad":n==="RETRYING"?"warn":"info";function zr(){const{params:n}=ee(),t=n.projectId,[r,i]=m([]),a=r[r.length-1],o=G(()=>R(mr,{id:t,after:a??null}),[t,a]),s=o.data?.project,d=s?.certificationRuns.edges??[];return e(F,{title:s?`${s.name}: certification`:"Certification",children:[e(he,{projectId:t,project:s?.name}),e("p",{class:"lead",children:"A certification run is a smoke test of this project against NRS, executed as a durable workflow. Watch its steps arrive live."}),s&&e(Fr,{projectId:t,configured:s.authority.configured}),e("h2",{children:"Past runs"}),o.loading&&!s&&e(K,{label:"Loading runs…"}),e(z,{error:o.error,retry:o.reload}),s&&d.length===0&&e(ce,{children:"No runs yet."}),d.length>0&&e("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"Certification runs",children:e("table",{children:[e("caption",{class:"sr-only",children:"Certification runs"}),e("thead",{children:e("tr",{children:[e("th",{scope:"col",children:"Run"}),e("th",{scope:"col",children:"Status"}),e("th",{scope:"col",children:"Type"}),e("th",{scope:"col",children:"Issue date"}),e("th",{scope:"col",children:"Started"})]})}),e("tbody",{children:d.map(({node:h})=>e("tr",{children:[e("th",{scope:"row",children:[e("a",{href:`/projects/${t}/certification/${h.id}`,children:h.id.slice(0,8)}),h.failureReason&&e("div",{class:"muted small",children:h.failureReason})]}),e("td",{children:e(E,{tone:Ye(h.status),children:h.status.toLowerCase()})}),e("td",{children:h.invoiceType}),e("td",{children:h.issueDate}),e("td",{children:Z(h.createdAt)})]},h.id))})]})}),e("div",{class:"pager",children:[r.length>0&&e("button",{type:"button",class:"secondary",onClick:()=>i(r.slice(0,-1)),children:"Newer runs"}),s?.certificationRuns.pageInfo.hasNextPage&&e("button",{type:"button",class:"secondary",onClick:()=>i([...r,s.certificationRuns.pageInfo.endCursor]),children:"Older runs"})]})]})}function Br(){return new Date().toISOString().slice(0,10)}function Fr(n){const t=B(),[r,i]=m(),[a,o]=m(!1),[s,d]=m(),h=async p=>{p.preventDefault();const l=new FormData(p.currentTarget),c=String(l.get("invoicePayload")??"").trim();let f=null;if(d(void 0),c)try{f=JSON.parse(c)}catch(g){d(`Not valid JSON: ${g.message}`);return}o(!0),i(void 0);try{const g=await R(yr,{input:{projectId:n.projectId,invoiceType:String(l.get("invoiceType")),issueDate:String(l.get("issueDate")),invoicePayload:f}});t.route(`/projects/${n.projectId}/certification/${g.startCertificationRun.id}`)}catch(g){i(g)}finally{o(!1)}},u=ne(r);return e("form",{class:"panel",onSubmit:h,noValidate:!0,children:[e("h2",{children:"Start a run"}),!n.configured&&e("p",{class:"warning",children:"This project has no tax authority settings yet: configure it on the Overview tab first."}),e("div",{class:"row",children:[e(se,{label:"Invoice type",name:"invoiceType",error:u.invoiceType,children:[e("option",{value:"B2B",children:"B2B: to a business"}),e("option",{value:"B2C",children:"B2C: to a consumer"}),e("option",{value:"B2G",children:"B2G: to a government body"})]}),e(C,{label:"Issue date",name:"issueDate",type:"date",value:Br(),required:!0,error:u.issueDate})]}),e("div",{class:`field${s||u.invoicePayload?" invalid":""}`,children:[e("label",{for:"run-payload",children:"Invoice JSON (optional)"}),e("textarea",{id:"run-payload",name:"invoicePayload",rows:4,"aria-describedby":"run-payload-hint",spellcheck:!1}),e("p",{class:"hint",id:"run-payload-hint",children:"Leave empty to certify a sample invoice of the chosen type."}),(s||u.invoicePayload)&&e("p",{class:"field-error",children:s??u.invoicePayload})]}),e(te,{error:r,fields:["invoiceType","issueDate","invoicePayload"]}),e("button",{type:"submit",disabled:a,children:a?"Starting…":"Start run"})]})}function Hr(){const{params:n}=ee(),{projectId:t,runId:r}=n,[i,a]=m(),[o,s]=m(),[d,h]=m(!1);return Q(()=>{let u;return a(void 0),s(void 0),R(_r,{id:r}).then(p=>{a(p.certificationRun),!["PASSED","FAILED","CANCELLED"].includes(p.certificationRun.status)&&(h(!0),u=Rn(vr,{id:r},c=>a(c.certificationRunUpdated),c=>{h(!1),c&&s(c)}))},s),()=>u?.()},[r]),e(F,{title:`Certification run ${r.slice(0,8)}`,children:[e(he,{projectId:t}),e("p",{children:e("a",{href:`/projects/${t}/certification`,children:"All runs"})}),!i&&!o&&e(K,{label:"Loading the run…"}),e(z,{error:o}),i&&e(O,{children:[e("dl",{class:"facts",children:[e("dt",{children:"Status"}),e("dd",{children:[e("span",{"data-testid":"run-status",children:e(E,{tone:Ye(i.status),children:i.status.toLowerCase()})})," ",d&&e("span",{class:"muted small",role:"status",children:"live"})]}),e("dt",{children:"Invoice type"}),e("dd",{children:i.invoiceType}),e("dt",{children:"Issue date"}),e("dd",{children:i.issueDate}),e("dt",{children:"IRN"}),e("dd",{children:e("code",{children:i.irn??"—"})}),i.failureReason&&e(O,{children:[e("dt",{children:"Why it failed"}),e("dd",{children:i.failureReason})]}),e("dt",{children:"Workflow"}),e("dd",{children:i.temporal.uiUrl?e("a",{href:i.temporal.uiUrl,target:"_blank",rel:"noopener noreferrer",children:[i.temporal.workflowId," in the Temporal UI"]}):e("code",{children:i.temporal.workflowId})})]}),e("h2",{children:"Steps"}),i.steps.length===0&&e(ce,{children:"No step has started yet."}),e("ol",{class:"steps","aria-live":"polite",children:i.steps.map(u=>e("li",{class:"step",children:e("details",{children:[e("summary",{children:[e(E,{tone:Ye(u.status),children:u.status.toLowerCase()})," ",e("strong",{children:u.name}),u.durationMs!=null&&e("span",{class:"muted small",children:[" ",u.durationMs," ms"]})]}),e("dl",{class:"facts small",children:[e("dt",{children:"Attempts"}),e("dd",{children:u.attempts}),e("dt",{children:"Started"}),e("dd",{children:Z(u.startedAt)}),e("dt",{children:"Finished"}),e("dd",{children:Z(u.finishedAt)}),e("dt",{children:"HTTP status"}),e("dd",{children:u.httpStatus??"—"}),e("dt",{children:"NRS error id"}),e("dd",{children:u.nrsErrorId??"—"}),e("dt",{children:"Message"}),e("dd",{children:u.message||"—"})]})]})},u.name))})]})]})}const Se=["#1d4ed8","#b45309","#047857","#7c3aed","#be123c","#0e7490","#4d7c0f","#9f1239"];function Ne(n){return n.toISOString().slice(0,10)}function Mr(){const{params:n}=ee(),t=n.projectId,[r,i]=m(()=>Ne(new Date(Date.now()-29*864e5))),[a,o]=m(()=>Ne(new Date)),[s,d]=m(""),h=G(()=>R(Ir,{id:t,from:r||null,to:a||null,keyId:s||null}),[t,r,a,s]),u=h.data?.project,p=u?.usage;return e(F,{title:u?`${u.name}: usage`:"Usage",children:[e(he,{projectId:t,project:u?.name}),e("form",{class:"filters",onSubmit:l=>l.preventDefault(),"aria-label":"Usage filters",children:[e(se,{label:"API key",name:"keyId",value:s,onChange:l=>d(l.currentTarget.value),children:[e("option",{value:"",children:"All keys"}),u?.apiKeys.edges.map(({node:l})=>e("option",{value:l.id,children:[l.keyName,l.status==="REVOKED"?" (revoked)":""]},l.id))]}),e(C,{label:"From",name:"from",type:"date",value:r,onChange:l=>i(l.currentTarget.value)}),e(C,{label:"To",name:"to",type:"date",value:a,onChange:l=>o(l.currentTarget.value)}),e("button",{type:"button",class:"secondary",onClick:h.reload,children:"Refresh"})]}),h.loading&&!p&&e(K,{label:"Loading usage…"}),e(z,{error:h.error,retry:h.reload}),p&&e(O,{children:[e("p",{children:[e("strong",{"data-testid":"usage-total",children:p.total})," calls from ",p.from," to ",p.to,h.loading&&e("span",{class:"muted small",children:" (updating…)"})]}),p.total===0?e(ce,{children:"No calls in this period. Calls made with the project's API keys show here, per operation and day."}):e(Vr,{from:p.from,to:p.to,daily:p.daily,operations:p.byOperation.map(l=>l.operation)}),p.byOperation.length>0&&e("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"Calls per operation",children:e("table",{children:[e("caption",{children:"Calls per operation"}),e("thead",{children:e("tr",{children:[e("th",{scope:"col",children:"Operation"}),e("th",{scope:"col",class:"num",children:"Calls"})]})}),e("tbody",{children:p.byOperation.map(l=>e("tr",{children:[e("th",{scope:"row",children:e("code",{children:l.operation})}),e("td",{class:"num",children:l.count})]},l.operation))})]})})]})]})}function Vr(n){const t=[];for(let l=new Date(`${n.from}T00:00:00Z`);Ne(l)<=n.to&&t.length<400;l=new Date(l.getTime()+864e5))t.push(Ne(l));const r=[...n.operations].sort(),i=new Map;for(const l of n.daily)i.has(l.date)||i.set(l.date,new Map),i.get(l.date).set(l.operation,l.count);const a=t.map(l=>[...i.get(l)?.values()??[]].reduce((c,f)=>c+f,0)),o=Math.max(1,...a),s=720,d=220,h=28,u=(s-h)/t.length,p=t.map((l,c)=>a[c]?`${l}: ${a[c]}`:"").filter(Boolean).join("; ");return e("figure",{class:"chart",children:[e("svg",{viewBox:`0 0 ${s} ${d+20}`,role:"img","aria-label":`Calls per day. ${p}`,"data-testid":"usage-chart",children:[e("line",{x1:h,y1:d,x2:s,y2:d,class:"axis"}),e("text",{x:h-4,y:12,class:"tick","text-anchor":"end",children:o}),e("text",{x:h-4,y:d,class:"tick","text-anchor":"end",children:"0"}),t.map((l,c)=>{let f=d;return e("g",{children:[r.map((g,b)=>{const I=i.get(l)?.get(g)??0;if(!I)return null;const $=I/o*(d-16);return f-=$,e("rect",{x:h+c*u+1,y:f,width:Math.max(1,u-2),height:$,fill:Se[b%Se.length],children:e("title",{children:[l," ",g,": ",I]})},g)}),(c===0||c===t.length-1||t.length<=14&&c%2===0)&&e("text",{x:h+c*u+u/2,y:d+14,class:"tick","text-anchor":"middle",children:l.slice(5)})]},l)})]}),e("figcaption",{children:e("ul",{class:"legend",children:r.map((l,c)=>e("li",{children:[e("svg",{width:"12",height:"12","aria-hidden":"true",children:e("rect",{width:"12",height:"12",fill:Se[c%Se.length]})})," ",l]},l))})})]})}function Wr(){const{params:n}=ee(),t=n.orgId,[r,i]=m(""),[a,o]=m([]),s=a[a.length-1],d=G(()=>R(br,{org:t,action:r||null,after:s??null}),[t,r,s]),h=G(()=>R($r,{org:t}),[t]),u=h.data?.organization.auditChain.brokenEntryId??null,p=d.data?.auditLogs.edges??[];return e(F,{title:"Audit log",actions:e(Gt,{orgId:t}),lead:"Every change made in this organization, newest first. Entries are hash-chained, so tampering is detectable.",children:[e(Qt,{orgId:t}),e(Qr,{chain:h.data?.organization.auditChain,loading:h.loading,error:h.error,reload:h.reload,brokenOnPage:u!==null&&p.some(l=>l.node.id===u)}),e("form",{class:"filters",onSubmit:l=>l.preventDefault(),"aria-label":"Audit filters",children:e(se,{label:"Action",name:"action",value:r,onChange:l=>{i(l.currentTarget.value),o([])},children:[e("option",{value:"",children:"All actions"}),d.data?.auditActions.map(l=>e("option",{value:l,children:l},l))]})}),d.loading&&!d.data&&e(K,{label:"Loading the audit log…"}),e(z,{error:d.error,retry:d.reload}),d.data&&p.length===0&&e(ce,{children:["No entries",r?` for ${r}`:"","."]}),p.length>0&&e("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"Audit entries",children:e("table",{"data-testid":"audit-table",children:[e("caption",{class:"sr-only",children:"Audit entries"}),e("thead",{children:e("tr",{children:[e("th",{scope:"col",children:"When"}),e("th",{scope:"col",children:"Action"}),e("th",{scope:"col",children:"Actor"}),e("th",{scope:"col",children:"Target"}),e("th",{scope:"col",children:"From"}),e("th",{scope:"col",children:"Hash"})]})}),e("tbody",{children:p.map(({node:l})=>e("tr",{class:l.id===u?"broken":void 0,"data-entry":l.id,children:[e("td",{children:Z(l.createdAt)}),e("th",{scope:"row",children:[e("code",{children:l.action}),l.id===u&&e("div",{children:e(E,{tone:"bad",children:"chain breaks here"})})]}),e("td",{children:[l.actor.type," ",e("code",{class:"small",children:l.actor.id.slice(0,8)})]}),e("td",{children:[l.target.type," ",e("code",{class:"small",children:l.target.id.slice(0,8)})]}),e("td",{class:"small",children:[l.ip,e("div",{class:"muted",children:l.requestId.slice(0,8)})]}),e("td",{children:e("code",{class:"small",title:`previous ${l.prevHash}`,children:l.hash.slice(0,12)})})]},l.id))})]})}),e("div",{class:"pager",children:[a.length>0&&e("button",{type:"button",class:"secondary",onClick:()=>o(a.slice(0,-1)),children:"Newer entries"}),d.data?.auditLogs.pageInfo.hasNextPage&&e("button",{type:"button",class:"secondary",onClick:()=>o([...a,d.data.auditLogs.pageInfo.endCursor]),children:"Older entries"})]})]})}function Qr(n){const t=n.chain,r=n.loading;return e("section",{class:"panel chain","aria-labelledby":"chain-title","aria-busy":r?"true":"false","data-testid":"audit-chain",children:[e("div",{class:"chain-head",children:[e("h2",{id:"chain-title",children:"Hash chain"}),(t||n.error)&&e("button",{type:"button",class:"secondary",onClick:n.reload,disabled:r,children:r?"Verifying…":"Verify again"})]}),r&&!t&&e(K,{label:"Verifying the hash chain…"}),e(z,{error:n.error}),t&&!n.error&&e(O,{children:[t.valid?e("div",{class:"verdict ok",role:"status","data-testid":"chain-verdict","data-state":"verified",children:e("p",{children:[e("strong",{children:[e("span",{"aria-hidden":"true",children:"✓ "}),"Verified."]})," ",t.entries===0?"The chain is empty: nothing has been recorded yet.":`All ${t.entries} ${t.entries===1?"entry carries its":"entries carry their"} keyed hash and link to the one before, and the head names the newest.`]})}):e("div",{class:"verdict bad",role:"alert","data-testid":"chain-verdict","data-state":"broken",children:[e("p",{children:[e("strong",{children:[e("span",{"aria-hidden":"true",children:"✗ "}),"Broken:"]})," ",e("span",{"data-testid":"chain-problem",children:t.problem})]}),t.brokenEntryId&&e("p",{children:["First entry at fault: ",e("code",{class:"wrap","data-testid":"chain-broken-entry",children:t.brokenEntryId})," ",n.brokenOnPage?"(marked in the entries below).":"(not on this page: clear the filter or page through older entries)."]}),e("p",{class:"small",children:"The log can no longer prove its history. Keep the entries as they are and investigate."})]}),e("dl",{class:"facts",children:[e("dt",{children:"Entries"}),e("dd",{"data-testid":"chain-entries",children:t.entries}),e("dt",{children:"Head"}),e("dd",{children:t.headSeq===0?"none yet":e(O,{children:["entry ",e("span",{"data-testid":"chain-head-seq",children:t.headSeq}),","," ",e("code",{class:"wrap","data-testid":"chain-head-hash",children:t.headHash})," ",e(Je,{text:t.headHash,label:"Copy head hash"})]})}),e("dt",{children:"Verified"}),e("dd",{children:e("time",{dateTime:t.verifiedAt,children:Gr(t.verifiedAt)})})]}),t.headSeq>0&&e("p",{class:"hint",children:["Keep the head's position and hash: a later chain whose entry ",t.headSeq," has another hash, or is gone, was rewritten or truncated. Verifications are reused for 10 seconds."]})]})]})}function Gr(n){return new Date(n).toLocaleString(void 0,{dateStyle:"medium",timeStyle:"medium"})}function Jt(n){return n.map(String).join("\0")}function Jr(n){const t=[],r=new Map,i=(a,o,s,d,h)=>{const u=t.length;if(Array.isArray(a)&&a.length>0)t.push(`${s}${d}[`),a.forEach((p,l)=>i(p,[...o,l],`${s}  `,"",l<a.length-1?",":"")),t.push(`${s}]${h}`);else if(a&&typeof a=="object"&&!Array.isArray(a)&&Object.keys(a).length>0){const p=Object.entries(a);t.push(`${s}${d}{`),p.forEach(([l,c],f)=>i(c,[...o,l],`${s}  `,`${JSON.stringify(l)}: `,f<p.length-1?",":"")),t.push(`${s}}${h}`)}else t.push(`${s}${d}${JSON.stringify(a)}${h}`);r.set(Jt(o),[u,t.length-1])};return i(n,[],"","",""),{lines:t,spans:r}}function Yr(n,t){for(let r=t.length;r>=0;r--){const i=n.get(Jt(t.slice(0,r)));if(i)return r===t.length?i:[i[0],i[0]]}}function Xr(n){const{lines:t,spans:r}=Jr(n.value),i=new Map;for(const a of n.marks){const o=Yr(r,a.path);if(o)for(let s=o[0];s<=o[1];s++)i.has(s)||i.set(s,[]),s===o[0]&&i.get(s).push(a)}return e("div",{class:"json",role:"region","aria-label":"Invoice JSON with problems highlighted",tabIndex:0,children:e("ol",{children:t.map((a,o)=>{const s=i.get(o);return e("li",{class:s?"marked":void 0,id:s?.[0]?`line-${s[0].id}`:void 0,children:[e("code",{children:a}),s&&s.length>0&&e("span",{class:"sr-only",children:[" problem: ",s.map(d=>d.label).join("; ")]})]},o)})})})}function Ke(n){if(!n.trim())return{error:"Paste or upload an invoice first."};try{const t=JSON.parse(n);return!t||typeof t!="object"||Array.isArray(t)?{error:"The invoice must be a JSON object."}:{value:t}}catch(t){return{error:`Not valid JSON: ${t.message}`}}}function St(n){const t=n.map(r=>typeof r=="number"?r:String(r));return t[0]==="input"&&t[1]==="payload"?t.slice(2):t}function Zr(){const{params:n}=ee(),t=n.projectId,[r,i]=m(""),[a,o]=m("B2B"),[s,d]=m(""),[h,u]=m(),[p,l]=m(),[c,f]=m(),[g,b]=m(),[I,$]=m(),[_,y]=m(""),[q,L]=m(),[V,re]=m(""),[J,D]=m("");Q(()=>()=>{I&&URL.revokeObjectURL(I)},[I]);const T=v=>{i(v);const{value:k}=Ke(v);k&&(typeof k.issue_date=="string"&&D(k.issue_date),typeof k.irn=="string"&&re(k.irn.split("-").slice(0,-2).join("-")||k.irn),typeof k.invoice_kind=="string"&&o(k.invoice_kind.toUpperCase()))},U=async(v,k)=>{y(v),L(void 0);try{await k()}catch(H){L(H)}finally{y("")}},Xt=()=>{const{value:v,error:k}=Ke(r);u(k),v&&U("validate",async()=>{const H=await R(wr,{projectId:t,input:{invoiceTypeCode:a,taxAuthorityCode:"NRS",payload:v,profile:s==="NRS"||s==="STRICT"?s:null}});l({value:v,report:H.validateInvoice,profile:H.project.validationProfile})})},Zt=v=>{v.preventDefault(),U("irn",async()=>{const k=await R(kr,{projectId:t,input:{invoiceReference:V,invoiceTypeCode:a,taxAuthorityCode:"NRS",issueDate:J}});f(k.generateIrn);const H=await R(Sr,{projectId:t,input:{irn:k.generateIrn.irn}});b(H.invoiceQrCode)})},en=()=>{const{value:v,error:k}=Ke(r);u(k),v&&U("render",async()=>{const H=await R(jr,{projectId:t,input:{invoiceType:a,payload:v}});if(!H.renderInvoice.pdfBase64)throw new Error("The server answered no PDF.");const nn=Uint8Array.from(atob(H.renderInvoice.pdfBase64),rn=>rn.charCodeAt(0));$(URL.createObjectURL(new Blob([nn],{type:"application/pdf"})))})},tn=async v=>{const k=v.currentTarget.files?.[0];if(k){if(k.size>9e5){u("The file is larger than the 900 KB an invoice may be.");return}T(await k.text())}},qe=p?[...p.report.errors,...p.report.warnings]:[],lt=ne(q);return e(F,{title:"Invoice workbench",lead:"Paste or upload an invoice as NRS expects it, check it against NRS's schema and rules, issue its IRN and QR code, and preview its PDF.",children:[e(he,{projectId:t}),e("div",{class:"workbench",children:[e("div",{class:"panel",children:[e("div",{class:"row",children:[e(se,{label:"Invoice kind",name:"kind",value:a,onChange:v=>o(v.currentTarget.value),children:[e("option",{value:"B2B",children:"B2B"}),e("option",{value:"B2C",children:"B2C"}),e("option",{value:"B2G",children:"B2G"})]}),e(se,{label:"Validation profile",name:"profile",value:s,onChange:v=>d(v.currentTarget.value),children:[e("option",{value:"",children:"The project's profile"}),e("option",{value:"NRS",children:"NRS: what NRS refuses is an error"}),e("option",{value:"STRICT",children:"Strict: consistency checks are errors too"})]}),e("div",{class:"field",children:[e("label",{for:"wb-file",children:"Upload a JSON file"}),e("input",{id:"wb-file",type:"file",accept:"application/json,.json",onChange:tn})]})]}),e("div",{class:`field${h?" invalid":""}`,children:[e("label",{for:"wb-json",children:"Invoice JSON"}),e("textarea",{id:"wb-json",rows:16,spellcheck:!1,value:r,"aria-invalid":h?"true":void 0,"aria-describedby":h?"wb-json-error":void 0,onInput:v=>T(v.currentTarget.value)}),h&&e("p",{class:"field-error",id:"wb-json-error",children:h})]}),e("div",{class:"buttons",children:[e("button",{type:"button",onClick:Xt,disabled:!!_,children:_==="validate"?"Validating…":"Validate"}),e("button",{type:"button",class:"secondary",onClick:en,disabled:!!_,children:_==="render"?"Rendering…":"Preview PDF"})]}),e(te,{error:q,fields:["invoiceReference","issueDate"]})]}),p&&e("section",{class:"panel","aria-labelledby":"wb-result",children:[e("h2",{id:"wb-result",tabIndex:-1,ref:v=>v?.focus(),children:[p.report.valid?e(E,{tone:"ok",children:"valid"}):e(E,{tone:"bad",children:"invalid"})," ",p.report.errors.length," errors, ",p.report.warnings.length," warnings"]}),e("p",{class:"muted small",children:["Schema ",p.report.schemaVersion,", rules ",p.report.ruleset,s===""&&`, the project's profile (${p.profile.toLowerCase()})`]}),qe.length>0&&e("ol",{class:"issues","data-testid":"issues",children:qe.map((v,k)=>{const H=St(v.loc);return e("li",{class:v.severity,children:[e(E,{tone:v.severity==="error"?"bad":"warn",children:v.severity})," ",e("code",{children:H.join(".")||"(invoice)"}),": ",v.message," ",e("span",{class:"muted small",children:v.rule})," ",e("a",{href:`#line-issue-${k}`,children:"show"})]},k)})}),e(Xr,{value:p.value,marks:qe.map((v,k)=>({path:St(v.loc),label:v.message,id:`issue-${k}`}))})]}),e("form",{class:"panel",onSubmit:Zt,noValidate:!0,children:[e("h2",{children:"IRN and QR code"}),e("div",{class:"row",children:[e(C,{label:"Invoice reference",name:"invoiceReference",value:V,onInput:v=>re(v.currentTarget.value),error:lt.invoiceReference}),e(C,{label:"Issue date",name:"issueDate",type:"date",value:J,onInput:v=>D(v.currentTarget.value),error:lt.issueDate})]}),e("button",{type:"submit",disabled:!!_,children:_==="irn"?"Generating…":"Generate IRN and QR"}),c&&e(Mt,{children:["IRN ",e("code",{"data-testid":"irn",children:c.irn})]}),g&&e("div",{class:"qr",children:[g.qrPngBase64&&e("img",{src:`data:image/png;base64,${g.qrPngBase64}`,alt:`QR code of ${g.irn}`,width:180,height:180}),e("p",{class:"small",children:["Encrypted payload (",g.encryption,", key ",g.keyFingerprint.slice(0,16),"…):"]}),e("code",{class:"wrap small",children:g.qrPayload})]})]}),I&&e("section",{class:"panel","aria-labelledby":"wb-pdf",children:[e("h2",{id:"wb-pdf",children:"PDF preview"}),e("iframe",{src:I,title:"Invoice PDF preview",class:"pdf","data-testid":"pdf"}),e("p",{children:e("a",{href:I,download:"invoice.pdf",children:"Download the PDF"})})]})]})]})}function Yt(n){return e(F,{title:n.error?"Something went wrong":"Page not found",children:[n.error?e(z,{error:n.error}):e("p",{children:"There is nothing at this address."}),e("p",{children:e("a",{href:"/",children:"Go to your projects"})})]})}const ei=["/login","/signup"];function ti(){return e(be,{children:e(ni,{})})}function ni(){const n=Sn(X),t=B();Q(()=>{n.status==="unknown"&&Ee()},[n.status]);const r=ei.includes(t.path);return Q(()=>{if(n.status==="signedOut"&&!r){const i=t.url!=="/"?`?next=${encodeURIComponent(t.url)}`:"";t.route(`/login${i}`,!0)}},[n.status,r,t.url]),n.status==="unknown"?e("main",{id:"main",class:"center",children:e(K,{label:"Signing you in…"})}):r||n.status!=="signedIn"?e("main",{id:"main",class:"center",children:e(Me,{children:[e(x,{path:"/login",component:Pr}),e(x,{path:"/signup",component:Tr}),e(x,{default:!0,component:()=>e(K,{})})]})}):e(oi,{email:n.user?.email??"",children:e(Me,{children:[e(x,{path:"/",component:ri}),e(x,{path:"/orgs",component:Nr}),e(x,{path:"/orgs/:orgId/projects",component:xr}),e(x,{path:"/orgs/:orgId/audit",component:Wr}),e(x,{path:"/projects/:projectId",component:Er}),e(x,{path:"/projects/:projectId/keys",component:Lr}),e(x,{path:"/projects/:projectId/certification",component:zr}),e(x,{path:"/projects/:projectId/certification/:runId",component:Hr}),e(x,{path:"/projects/:projectId/usage",component:Mr}),e(x,{path:"/projects/:projectId/workbench",component:Zr}),e(x,{default:!0,component:Yt})]})})}function ri(){const n=B(),t=G(()=>R(ct),[]);return Q(()=>{const r=t.data?.me.organizations.edges.map(o=>o.node.id)??[];if(!t.data)return;const i=localStorage.getItem(ue),a=r.find(o=>o===i)??r[0];n.route(a?`/orgs/${a}/projects`:"/orgs",!0)},[t.data]),t.error?e(Yt,{error:t.error}):e(K,{})}async function ii(n){Dn();try{await R(or)}catch{}try{await st(ar,{})}catch{}at(),n("/login")}function oi(n){const t=B();return e(O,{children:[e("a",{class:"skip",href:"#main",children:"Skip to content"}),e("header",{class:"top",children:[e("a",{class:"brand",href:"/",children:"einvoice"}),e("nav",{"aria-label":"Account",class:"account",children:[e("a",{href:"/orgs","aria-current":t.path==="/orgs"?"page":void 0,children:"Organizations"}),e("span",{class:"email",title:n.email,children:n.email}),e("button",{type:"button",class:"secondary",onClick:()=>{ii(t.route)},children:"Log out"})]})]}),e("main",{id:"main",children:n.children})]})}un(e(ti,{}),document.getElementById("app"));
